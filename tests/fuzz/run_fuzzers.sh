#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in a build folder of their own (EXOCHECK_FUZZ: every
# library under AddressSanitizer and UBSan) and runs each for SECONDS from the committed corpus
# (tests/fuzz/corpus/), new inputs going to a scratch folder. Prints, per target, the executions
# and the crashes; exits 1 if any target crashed, leaked or hung, with the input that did it.
#   usage: tests/fuzz/run_fuzzers.sh [SECONDS] [BUILD_DIR]      (defaults: 30, ./build-fuzz)
#          tests/fuzz/run_fuzzers.sh --seeds MAIN_BUILD_DIR [BUILD_DIR]  (writes the seeds again)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
targets=(fuzz_trace_file fuzz_control_frames fuzz_coordinator_messages fuzz_free_run_log)
if [ "${1:-}" = --seeds ]; then
  build=${3:-$repo/build-fuzz}
else
  build=${2:-$repo/build-fuzz}
fi
command -v clang++ >/dev/null || { echo "run_fuzzers: clang++ is not installed (deploy/setup.sh installs clang)"; exit 1; }
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEXOCHECK_FUZZ=ON \
    -DEXOCHECK_BUILD_TESTS=OFF -DEXOCHECK_BUILD_SUBJECTS=OFF >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log"; exit 1; }
fi
ninja -C "$build" -j "${EXOCHECK_JOBS:-2}" "${targets[@]}" make_fuzz_seeds | tail -1

if [ "${1:-}" = --seeds ]; then
  main_bin=$(cd "${2:?the main build folder}/bin" && pwd)
  "$build/bin/make_fuzz_seeds" "$repo/tests/fuzz/corpus"
  # Trace files: real ones, a failing run's and a long one's.
  scratch=$(mktemp -d)
  (cd "$scratch" && "$main_bin/exocheck" explore --workers 1 --out cs -- "$main_bin/clientserver" >/dev/null 2>&1 || true)
  (cd "$scratch" && "$main_bin/exocheck" run -- "$main_bin/registry" --workers 3 >/dev/null 2>&1)
  mkdir -p "$repo/tests/fuzz/corpus/trace_file"
  cp "$scratch/cs/bug-1.trace" "$repo/tests/fuzz/corpus/trace_file/clientserver-bug.trace"
  cp "$scratch/exocheck-run.trace" "$repo/tests/fuzz/corpus/trace_file/registry-3.trace"
  rm -rf "$scratch"
  exit 0
fi

seconds=${1:-30}
status=0
for target in "${targets[@]}"; do
  corpus=$repo/tests/fuzz/corpus/${target#fuzz_}
  work=$(mktemp -d)
  mkdir -p "$work/new" "$work/found"
  set +e
  "$build/bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$work/found/" "$work/new" "$corpus" >"$work/log" 2>&1
  code=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  found=$(find "$work/found" -type f | wc -l)
  echo "$target: ${runs:-0} executions in $seconds s, $found crashes (corpus $(find "$corpus" -type f | wc -l) files)"
  if [ "$code" != 0 ] || [ "$found" != 0 ]; then
    tail -40 "$work/log"
    echo "$target: the input is in $work/found"
    status=1
  else
    rm -rf "$work"
  fi
done
exit $status
