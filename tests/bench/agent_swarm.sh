#!/usr/bin/env bash
# Issue 21's second figure, the simulated part: AGENTS simulated agents (default 1,000; a stream and
# one slot each, runs of COST_MS wall time; build/bin/exocheck-agent-swarm) on one real loopback
# coordinator explore registry --workers K and pi --workers 5 with DPOR and LCA, beside
# `exocheck explore --workers 1`. Prints the swarm's line (paths, classes, subtrees leased per
# second, the coordinator's CPU: its share of one CPU, per path and per subtree leased) and the
# redundancy against one worker.
# A benchmark, not a test: it prints figures.
#   usage: tests/bench/agent_swarm.sh [BUILD_DIR] [AGENTS] [COST_MS] [K] [PORT]
set -euo pipefail
build=${1:-build}
agents=${2:-1000}
cost=${3:-200}
k=${4:-7}
port=${5:-7799}
work=$(mktemp -d)
trap 'kill "${coordinator:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
ulimit -n 65536 2>/dev/null || true
"$build/bin/exocheck-coordinator" --listen "127.0.0.1:$port" >"$work/coordinator.log" 2>&1 &
coordinator=$!
sleep 0.5
field() { sed -n "s/^ *\"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" | head -n 1; }
for subject in "registry $k" "pi 5"; do
  read -r name workers <<<"$subject"
  "$build/bin/exocheck" explore --workers 1 --strategy systematic --reduction dpor --heuristic lca --json --out "$work/out" \
    -- "$build/bin/$name" --workers "$workers" >"$work/one.json" 2>/dev/null || true
  one_paths=$(field paths <"$work/one.json")
  one_classes=$(field classes <"$work/one.json")
  line=$("$build/bin/exocheck-agent-swarm" --coordinator "127.0.0.1:$port" --coordinator-pid "$coordinator" \
    --agents "$agents" --cost-ms "$cost" --subject "$name" --workers "$workers" --reduction dpor --heuristic lca)
  echo "$line"
  paths=$(sed -n 's/.*: [A-Z_]*; \([0-9]*\) paths.*/\1/p' <<<"$line")
  classes=$(sed -n 's/.* \([0-9]*\) classes.*/\1/p' <<<"$line")
  awk -v n="$name" -v w="$workers" -v op="$one_paths" -v oc="$one_classes" -v p="$paths" -v c="$classes" 'BEGIN {
    printf "%s --workers %d: one worker %d paths, %d classes; swarm %d paths, %d classes (%s); redundancy %.3f\n",
      n, w, op, oc, p, c, (c == oc ? "the same classes" : "CLASSES DIFFER"), p / op
  }'
done
