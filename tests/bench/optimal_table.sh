#!/usr/bin/env bash
# Optimal DPOR (the default) beside TransDPOR with sleep sets on the subjects that explore
# completely: executions (paths + sleep-blocked), sleep-blocked ones, classes and wall time, both
# with --keep-going so that subjects with bugs are explored to the end. TransDPOR runs with
# WORKERS workers (default 2), optimal with one (the algorithm as written) and with WORKERS.
#   tests/bench/optimal_table.sh [BUILD_DIR] [WORKERS]
set -euo pipefail
build=${1:-build}
workers=${2:-2}
bin="$build/bin"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

row() {  # name, subject and its arguments
  local name=$1
  shift
  local cells=""
  for run in "transdpor $workers" "optimal 1" "optimal $workers"; do
    local reduction=${run% *} n=${run#* } json
    json=$("$bin/exocheck" explore --json --keep-going --workers "$n" --strategy systematic --reduction "$reduction" --out "$out/o" \
      -- "$bin/$1" "${@:2}" 2>/dev/null || true)
    cells+=$(python3 -c '
import json, sys
s = json.loads(sys.argv[1])["stats"]
paths, blocked, classes, wall = s["paths"], s["sleep_blocked"], s["classes"], s["wall_seconds"]
print(f"{paths + blocked:,} | {blocked:,} | {classes:,} | {wall:.2f} | ", end="")
' "$json")
  done
  echo "| $name | $cells"
}

echo "| subject | transdpor ($workers): executions | blocked | classes | s | optimal (1): executions | blocked |" \
  "classes | s | optimal ($workers): executions | blocked | classes | s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for k in 2 3 4 5 6 7; do row "registry K=$k" registry --workers=$k; done
row "pi 5" pi --workers=5
row "fib 5" fib --n=5
for n in 3 4 5 6; do row "leader $n" leader --n=$n; done
row "diningphil" diningphil
row "diningphil --fixed" diningphil --fixed
row "shortpath 4" shortpath --nodes=4
row "shortpath 5" shortpath --nodes=5
row "chameneos" chameneos
row "serverreal" serverreal

# The rate figure: registry K=7 (40,320 classes), one worker, optimal beside TransDPOR; the
# median of three runs of each, alternating, as the machine is shared.
declare -A rates
for round in 1 2 3; do
  for reduction in transdpor optimal; do
    json=$("$bin/exocheck" explore --json --workers 1 --strategy systematic --reduction "$reduction" --out "$out/o" -- "$bin/registry" --workers=7)
    rates[$reduction]+="$(python3 -c '
import json, sys
s = json.loads(sys.argv[1])["stats"]
executions, wall = s["paths"] + s["sleep_blocked"], s["wall_seconds"]
print(f"{executions / wall:.0f} {wall:.2f}")
' "$json")"$'\n'
  done
done
for reduction in transdpor optimal; do
  printf '%s' "${rates[$reduction]}" | sort -n | python3 -c '
import sys
runs = [line.split() for line in sys.stdin if line.strip()]
rate, wall = runs[len(runs) // 2]
print(f"registry K=7, {sys.argv[1]}, 1 worker: {int(rate):,} executions/s (median of {len(runs)}: {wall} s; all: "
      + ", ".join(f"{w} s" for _, w in runs) + ")")
' "$reduction"
done
