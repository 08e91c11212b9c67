#!/usr/bin/env bash
# Set up, build (warnings as errors under CI), run the whole test suite, then each fuzz target for
# EXOCHECK_FUZZ_SECONDS (default 15) from its committed corpus (a clang build of its own).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${EXOCHECK_BUILD_DIR:-$here/build}
bash "$here/deploy/build.sh"
cd "$build"
ctest --output-on-failure -j 2 --timeout 300
bash "$here/tests/fuzz/run_fuzzers.sh" "${EXOCHECK_FUZZ_SECONDS:-15}" "$build-fuzz"
