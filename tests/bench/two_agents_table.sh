#!/usr/bin/env bash
# Optimal DPOR and TransDPOR through a loopback coordinator with two one-slot agents (subtrees split
# between them), beside one agent: executions / sleep-blocked / classes / wall seconds per job. A
# class reached by both agents shows as executions above classes; the wall time of a small job
# shows what the split costs.
#   tests/bench/two_agents_table.sh [BUILD_DIR] [PORT]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
port=${2:-47031}
bin="$build/bin"
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin/exocheck-coordinator" --listen "127.0.0.1:$port" >"$work/coordinator.log" 2>&1 &
pids+=($!)
sleep 0.5
start_agent() {  # name
  "$bin/exocheck-agent" --coordinator "127.0.0.1:$port" --slots 1 --subjects-dir "$bin" --name "$1" \
    >"$work/$1.log" 2>&1 &
  pids+=($!)
}

cell() {  # reduction, subject and its arguments
  local reduction=$1 json
  shift
  json=$(cd "$bin" && ./exocheck explore --strategy systematic --coordinator "127.0.0.1:$port" --json --keep-going \
    --reduction "$reduction" -- "./$1" "${@:2}" 2>/dev/null || true)
  python3 "$(dirname "$0")/summary_cell.py" executions blocked classes time <<<"$json"
}

rows=("registry --workers=3" "registry --workers=4" "registry --workers=5" "registry --workers=6"
  "shortpath --nodes=5" "leader --n=6" "mutex" "workers" "pi --workers=5")
declare -A one
start_agent a1
sleep 1
for subject in "${rows[@]}"; do
  # shellcheck disable=SC2086  # a subject's arguments
  one[$subject]=$(cell optimal $subject)
done
start_agent a2
sleep 1
echo "| subject | optimal, two agents | transdpor, two agents | optimal, one agent |"
echo "|---|---|---|---|"
for subject in "${rows[@]}"; do
  # shellcheck disable=SC2086  # a subject's arguments
  echo "| $subject | $(cell optimal $subject) | $(cell transdpor $subject) | ${one[$subject]} |"
done
