#!/usr/bin/env bash
# A coordinator killed and restarted mid-job, on a loaded machine: ROUNDS rounds of COPIES copies
# of CoordinatorRestart.AJobGoesOnThroughAKillAndRestartFromTheStateDir side by side (each with its
# own coordinator, two agents and a journal). Prints how many passed, and the longest: a run that
# hangs (an agent back after the reattach grace, a lease nobody explores) shows as exit 124 at
# this script's 120 s timeout. A benchmark, not a test: it prints figures.
#   usage: tests/bench/restart_under_load.sh [BUILD_DIR] [ROUNDS] [COPIES]
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
copies=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 total=0 longest=0
for round in $(seq 1 "$rounds"); do
  pids=()
  for copy in $(seq 1 "$copies"); do
    (
      start=$(date +%s%N)
      status=0
      timeout 120 "$build/bin/distributed_test" \
        --gtest_filter=CoordinatorRestart.AJobGoesOnThroughAKillAndRestartFromTheStateDir \
        >"$work/r$round-$copy.log" 2>&1 || status=$?
      echo "$status $((($(date +%s%N) - start) / 1000000))" >"$work/r$round-$copy.result"
    ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  for copy in $(seq 1 "$copies"); do
    read -r status ms <"$work/r$round-$copy.result"
    total=$((total + 1))
    if [ "$status" = 0 ]; then
      passed=$((passed + 1))
    else
      echo "round $round copy $copy: exit $status: $(grep -m1 -E 'Failure|error' "$work/r$round-$copy.log" || true)"
    fi
    if [ "$ms" -gt "$longest" ]; then longest=$ms; fi
  done
done
echo "restart under load: $passed of $total passed, $copies side by side, longest $((longest / 1000)).$((longest % 1000 / 100)) s"
