#!/usr/bin/env bash
# Each delivery order (--delivery unordered|fifo|causal) on subjects where it matters: executions
# (paths + sleep-blocked), sleep-blocked ones and classes, per reduction (DPOR without sleep sets,
# TransDPOR and optimal with them), one worker, --keep-going so that subjects with bugs are
# explored to the end. One markdown table.
#   tests/bench/delivery_table.sh [BUILD_DIR] [TIMEOUT_SECONDS]
set -euo pipefail
build=${1:-build}
limit=${2:-120}
bin="$build/bin"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cell() {  # delivery, reduction words, subject and its arguments
  local delivery=$1 reduction=$2 json
  shift 2
  # shellcheck disable=SC2086  # the reduction's words are flags
  json=$("$bin/exocheck" explore --json --keep-going --workers 1 --strategy systematic --time-limit "$limit" --reduction $reduction \
    --delivery "$delivery" --out "$out/o" -- "$bin/$1" "${@:2}" 2>/dev/null || true)
  python3 "$(dirname "$0")/summary_cell.py" executions blocked classes <<<"$json"
}

echo "| subject | delivery | dpor, no sleep sets | transdpor | optimal |"
echo "|---|---|---|---|---|"
for subject in "registry" "clientserver" "shortpath" "regsim" "pipesort" "leader --n=4"; do
  for delivery in unordered fifo causal; do
    # shellcheck disable=SC2086  # a subject's arguments
    echo "| $subject | $delivery | $(cell "$delivery" "dpor --no-sleep-sets" $subject) | $(cell "$delivery" transdpor $subject) | $(cell "$delivery" optimal $subject) |"
  done
done
