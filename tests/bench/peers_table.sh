#!/usr/bin/env bash
# Peer programs ported as native subjects (Concuerror's proxy and workers_2, SimGrid's centralized
# mutex), the proxy chain with guards (proxy --guarded, 12 proxies; with views and as plain predicates) and
# leader 3 to 6: executions (paths
# + sleep-blocked), sleep-blocked ones, classes and wall time per reduction, with the default
# options otherwise (unordered delivery, one worker here so that the figures do not depend on
# timing). One markdown table.
#   tests/bench/peers_table.sh [BUILD_DIR] [TIMEOUT_SECONDS]
set -euo pipefail
build=${1:-build}
limit=${2:-120}
bin="$build/bin"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cell() {  # reduction words, subject and its arguments
  local reduction=$1 json
  shift
  # shellcheck disable=SC2086  # the reduction's words are flags
  json=$("$bin/exocheck" explore --json --keep-going --workers 1 --strategy systematic --time-limit "$limit" --reduction $reduction \
    --out "$out/o" -- "$bin/$1" "${@:2}" 2>/dev/null || true)
  python3 "$(dirname "$0")/summary_cell.py" executions blocked classes time <<<"$json"
}

echo "| subject | exhaustive | dpor | transdpor | optimal (default) |"
echo "|---|---|---|---|---|"
for subject in "proxy" "proxy --guarded --proxies=12" "proxy --guarded --plain-guards --proxies=12" "workers" "mutex" "leader --n=3" "leader --n=4" "leader --n=5" \
  "leader --n=6"; do
  # shellcheck disable=SC2086  # a subject's arguments
  echo "| $subject | $(cell exhaustive $subject) | $(cell dpor $subject) | $(cell transdpor $subject) | $(cell optimal $subject) |"
done
