#!/usr/bin/env bash
# The main job: set up, build, and run the registry subject under control, printing its trace.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${EXOCHECK_BUILD_DIR:-$here/build}
bash "$here/deploy/build.sh"
"$build/bin/exocheck" run --out "$build/registry.trace" -- "$build/bin/registry"
