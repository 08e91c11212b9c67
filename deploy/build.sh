#!/usr/bin/env bash
# Installs what is missing, then configures and builds exocheck into ./build (or $EXOCHECK_BUILD_DIR).
#   build.sh           everything: the tests, the subjects, the CAF adapter, the benchmarks
#   build.sh --main    the CLI (with the hook) and the registry and clientserver subjects (main.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${EXOCHECK_BUILD_DIR:-$here/build}
profile=all
targets=()
if [ "${1:-}" = "--main" ]; then
  profile=main
  targets=(--target exocheck registry clientserver)
fi
bash "$here/deploy/setup.sh" "$profile"
flags=()
# Warnings are errors in CI builds only: a newer compiler's new warning must not stop a user.
[ "${CI:-}" = "true" ] && flags+=(-DEXOCHECK_WERROR=ON)
# The main build needs no GoogleTest; a later full build in the same folder turns the tests on again.
tests=ON
[ "$profile" = main ] && tests=OFF
# Line tables only (-g1): a backtrace still names files and lines, and full debug info was a fifth
# of every compile's time (the code is the same: -g never changes what GCC generates).
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXOCHECK_BUILD_TESTS=$tests \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" "${flags[@]}" >/dev/null
cmake --build "$build" -j "${EXOCHECK_JOBS:-2}" "${targets[@]}"
