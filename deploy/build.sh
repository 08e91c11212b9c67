#!/usr/bin/env bash
# Installs what is missing, then configures and builds exocheck into ./build (or $EXOCHECK_BUILD_DIR).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${EXOCHECK_BUILD_DIR:-$here/build}
bash "$here/deploy/setup.sh"
flags=()
# Warnings are errors in CI builds only: a newer compiler's new warning must not stop a user.
[ "${CI:-}" = "true" ] && flags+=(-DEXOCHECK_WERROR=ON)
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${flags[@]}" >/dev/null
cmake --build "$build" -j "${EXOCHECK_JOBS:-2}"
