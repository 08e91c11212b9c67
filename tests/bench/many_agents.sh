#!/usr/bin/env bash
# Issue 21's second figure, the real part: AGENTS agent processes of one slot each (default 32)
# behind one loopback coordinator explore registry --workers K and pi --workers 5 with DPOR and
# LCA (sleep sets on), beside `exocheck explore --workers 1` on the same subject. Prints, per
# subject: classes and paths of both, the redundancy (distributed paths / one worker's paths),
# subtrees leased and leases per second, and the coordinator's share of one CPU over the job.
# A benchmark, not a test: it prints figures.
#   usage: tests/bench/many_agents.sh [BUILD_DIR] [AGENTS] [K] [PORT]
set -euo pipefail
build=${1:-build}
agents=${2:-32}
k=${3:-7}
port=${4:-7798}
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
"$build/bin/exocheck-coordinator" --listen "127.0.0.1:$port" >"$work/coordinator.log" 2>&1 &
coordinator=$!
pids+=("$coordinator")
sleep 0.5
for i in $(seq 1 "$agents"); do
  "$build/bin/exocheck-agent" --coordinator "127.0.0.1:$port" --slots 1 --name "agent-$i" --subjects-dir "$build/bin" >"$work/agent-$i.log" 2>&1 &
  pids+=("$!")
done
for _ in $(seq 1 100); do
  [ "$(grep -c ' attached with ' "$work/coordinator.log" || true)" -ge "$agents" ] && break
  sleep 0.1
done
field() { sed -n "s/^ *\"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" | head -n 1; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
options=(--strategy systematic --reduction dpor --heuristic lca)
explore() {  # WHERE... -- SUBJECT...: the summary JSON in $work/job.json
  "$build/bin/exocheck" explore "$@" >"$work/job.json" 2>"$work/job.err" || {
    local status=$?
    [ "$status" -le 1 ] || { echo "explore $* failed: $(tail -n 1 "$work/job.err")" >&2; exit 1; }
  }
}
for subject in "registry --workers $k" "pi --workers 5"; do
  # shellcheck disable=SC2086
  explore --workers 1 "${options[@]}" --json --out "$work/out" -- "$build/bin/"$subject
  one_paths=$(field paths <"$work/job.json")
  one_classes=$(field classes <"$work/job.json")
  one_rate=$(field paths_per_second <"$work/job.json")
  c0=$(ticks "$coordinator")
  # shellcheck disable=SC2086
  explore --coordinator "127.0.0.1:$port" "${options[@]}" --json --out "$work/out" -- "$build/bin/"$subject
  c1=$(ticks "$coordinator")
  paths=$(field paths <"$work/job.json")
  classes=$(field classes <"$work/job.json")
  seconds=$(field wall_seconds <"$work/job.json")
  subtrees=$(field subtrees <"$work/job.json")
  rate=$(field paths_per_second <"$work/job.json")
  awk -v s="$subject" -v agents="$agents" -v op="$one_paths" -v oc="$one_classes" -v orate="$one_rate" \
    -v p="$paths" -v c="$classes" -v secs="$seconds" -v rate="$rate" -v ticks=$((c1 - c0)) -v hz="$hz" \
    -v subtrees="$subtrees" 'BEGIN {
      printf "%s, dpor + lca: one worker %d paths, %d classes, %.0f paths/s; %d agents %d paths, %d classes, %.0f paths/s; redundancy %.3f; %d subtrees leased, %.0f per second; coordinator CPU %.2f s = %.1f%% of one CPU over the job'"'"'s %.2f s, %.2f us per path\n",
        s, op, oc, orate, agents, p, c, rate, p / op, subtrees, subtrees / secs, ticks / hz, 100 * ticks / hz / secs, secs, ticks * 1e6 / hz / p
    }'
done
