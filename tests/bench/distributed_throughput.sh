#!/usr/bin/env bash
# Executions per second through the daemons on loopback: a coordinator and one agent with SLOTS
# slots on this host explore registry --workers K (TransDPOR + sleep sets) with
# `exocheck explore --coordinator`, once to start the agent's fork servers, then JOBS times
# measured. Prints each measured job's paths per second and the CPU each process spent per path:
# the coordinator, the agent (its gRPC stream and runners), and the agent's subject processes
# (fork servers, whose runs are in place). A benchmark, not a test: it prints figures.
#   usage: tests/bench/distributed_throughput.sh [BUILD_DIR] [SLOTS] [K] [JOBS] [PORT]
set -euo pipefail
build=${1:-build}
slots=${2:-2}
k=${3:-6}
jobs=${4:-3}
port=${5:-7796}
source "$(dirname "$0")/loopback_daemons.sh"
start_loopback_daemons "$build" "$port" "$slots"
# CPU ticks (user + system) of a process, or of every child of one.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
children_ticks() {
  local sum=0 child
  for child in $(pgrep -P "$1" || true); do sum=$((sum + $(ticks "$child" 2>/dev/null || echo 0))); done
  echo "$sum"
}
explore() {
  "$build/bin/exocheck" explore --coordinator "127.0.0.1:$port" --strategy systematic --reduction transdpor --json -- "$build/bin/registry" \
    --workers "$k" >"$work/job.json" 2>"$work/job.err" || { echo "job failed: $(tail -n 1 "$work/job.err")"; exit 1; }
}
explore  # starts the fork servers and hashes the subject: not measured
hz=$(getconf CLK_TCK)
for i in $(seq 1 "$jobs"); do
  c0=$(ticks "$coordinator") a0=$(ticks "$agent") s0=$(children_ticks "$agent")
  explore
  c1=$(ticks "$coordinator") a1=$(ticks "$agent") s1=$(children_ticks "$agent")
  awk -v i="$i" -v k="$k" -v slots="$slots" -v paths="$(field paths <"$work/job.json")" \
    -v rate="$(field paths_per_second <"$work/job.json")" -v hz="$hz" \
    -v c=$((c1 - c0)) -v a=$((a1 - a0)) -v s=$((s1 - s0)) 'BEGIN {
      us = 1e6 / hz / paths
      printf "job %d, registry K=%d, 1 agent with %d slots: %d paths, %.0f paths/s; CPU per path: coordinator %.1f us, agent %.1f us, subjects %.1f us\n",
        i, k, slots, paths, rate, c * us, a * us, s * us
    }'
done
