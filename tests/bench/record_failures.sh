#!/usr/bin/env bash
# Free runs recorded until each subject has failed FAILURES times (exocheck record, DESIGN.md
# "Recorded runs"): runs, failures, traces written, traces that replay to the same failure.
#   tests/bench/record_failures.sh [BUILD_DIR] [FAILURES] [MOST_RUNS]
# clientserver's Set goes through a relay that waits up to 100 us (--relay 100): the race window
# a test harness under load would widen; caf-bank (a CAF program on CAF's own scheduler, the
# adapter preloaded by `record`) and session-cache's Query race as they are; caf-retry's account
# takes 100 ms over the first deposit (--slow-ms=100), and the request's 100 ms timeout races it;
# caf-batcher's items come 50 ms apart (--gap-ms=50), and its 50 ms after(...) races them;
# caf-scoped's caf_main waits 1 ms for each increment (--wait-ms=1, a blocking receive's after(...))
# that takes the counter 2 ms (--slow-ms=2); caf-bank --detached's account runs on a private thread.
set -euo pipefail
build=${1:-build}
want=${2:-20}
most=${3:-5000}
bin=$(cd "$build/bin" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| subject | runs | failures | traces written | traces that replay to the same failure | failures by kind |"
echo "|---|---|---|---|---|---|"
for case in "clientserver --relay 100" "caf-bank" "caf-retry --slow-ms=100" "caf-batcher --gap-ms=50" "session-cache" \
  "caf-scoped --wait-ms=1 --slow-ms=2" "caf-bank --detached"; do
  read -r subject args <<<"$case"
  out="$work/${case// /_}"  # a subject may come twice, with other arguments
  runs=0 failures=0
  declare -A kinds=()
  while [ "$failures" -lt "$want" ] && [ "$runs" -lt "$most" ]; do
    runs=$((runs + 1))
    status=0
    # shellcheck disable=SC2086
    "$bin/exocheck" record --json --out "$out" -- "$bin/$subject" $args >"$work/report.json" 2>/dev/null || status=$?
    [ "$status" -eq 0 ] && continue
    [ "$status" -eq 1 ] || { echo "exocheck record exited with $status on $subject" >&2; exit 1; }
    failures=$((failures + 1))
    kind=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' "$work/report.json")
    kinds[$kind]=$(( ${kinds[$kind]:-0} + 1 ))
  done
  traces=0 reproduced=0
  for trace in "$out"/*.trace; do
    [ -e "$trace" ] || continue
    traces=$((traces + 1))
    replayed=$("$bin/exocheck" replay "$trace" 2>/dev/null || true)  # exit 1: a bug reproduced
    grep -q '^Replay: reproduced ' <<<"$replayed" && reproduced=$((reproduced + 1))
  done
  summary=""
  for kind in "${!kinds[@]}"; do summary+="$kind ${kinds[$kind]} "; done
  echo "| $case | $runs | $failures | $traces | $reproduced | ${summary% } |"
  unset kinds
done
