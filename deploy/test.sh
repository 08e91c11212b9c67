#!/usr/bin/env bash
# Set up, build (warnings as errors under CI), and run the whole test suite.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${EXOCHECK_BUILD_DIR:-$here/build}
bash "$here/deploy/build.sh"
cd "$build"
ctest --output-on-failure -j 2 --timeout 300
