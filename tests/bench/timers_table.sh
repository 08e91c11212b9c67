#!/usr/bin/env bash
# The subjects with timers and choices under each timer semantics (--timers anytime|quiescent):
# executions (paths + sleep-blocked), classes, bugs and wall time, with the default reduction
# (transdpor) and optimal, one worker, --keep-going so that the variants with bugs are explored to
# the end. One markdown table.
#   tests/bench/timers_table.sh [BUILD_DIR] [TIMEOUT_SECONDS]
set -euo pipefail
build=${1:-build}
limit=${2:-120}
bin="$build/bin"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cell() {  # timers, reduction, subject and its arguments
  local timers=$1 reduction=$2 json
  shift 2
  json=$("$bin/exocheck" explore --strategy systematic --json --keep-going --workers 1 --time-limit "$limit" \
    --reduction "$reduction" --timers "$timers" --out "$out/o" -- "$bin/$1" "${@:2}" 2>/dev/null || true)
  python3 "$(dirname "$0")/summary_cell.py" executions classes bugs time <<<"$json"
}

echo "| subject | timers | transdpor: executions / classes / bugs / time | optimal |"
echo "|---|---|---|---|"
for subject in "retry" "retry --fixed" "retry --retries=2" "election" "election --fixed" "election --nodes=3 --fixed"; do
  for timers in anytime quiescent; do
    # shellcheck disable=SC2086  # a subject's arguments
    echo "| $subject | $timers | $(cell "$timers" transdpor $subject) | $(cell "$timers" optimal $subject) |"
  done
done
