#!/usr/bin/env bash
# Small jobs through the daemons on loopback: a coordinator and one agent (1 slot) on this host,
# then JOBS explorations of registry (K=2: 6 paths each) submitted one after the other with
# `exocheck explore --coordinator`. Prints the wall time of the whole series, and each job's time
# on the coordinator: the first job hashes the subject and starts its fork server, later jobs
# reuse both. A benchmark, not a test: it prints figures.
#   usage: tests/bench/small_jobs.sh [BUILD_DIR] [JOBS] [PORT]
set -euo pipefail
build=${1:-build}
jobs=${2:-30}
port=${3:-7795}
source "$(dirname "$0")/loopback_daemons.sh"
start_loopback_daemons "$build" "$port" 1
start=$(date +%s.%N)
for i in $(seq 1 "$jobs"); do
  "$build/bin/exocheck" explore --coordinator "127.0.0.1:$port" --strategy systematic --json -- "$build/bin/registry" --workers 2 \
    >"$work/job$i.json" 2>"$work/job$i.err" || { echo "job $i failed: $(tail -n 1 "$work/job$i.err")"; exit 1; }
done
end=$(date +%s.%N)
times=()
for i in $(seq 1 "$jobs"); do times+=("$(field wall_seconds <"$work/job$i.json")"); done
awk -v jobs="$jobs" -v classes="$(field classes <"$work/job1.json")" -v start="$start" -v end="$end" \
  -v times="${times[*]}" 'BEGIN {
    printf "%d jobs of registry K=2 (%d classes each): %.2f s in all, %.0f ms per exocheck explore --coordinator\n",
      jobs, classes, end - start, (end - start) * 1000 / jobs
    n = split(times, t, " ")
    printf "on the coordinator: first job %.1f ms; later jobs", t[1] * 1000
    for (i = 2; i <= n; ++i) printf " %.1f", t[i] * 1000
    printf " ms\n"
  }'
