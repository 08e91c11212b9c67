#!/usr/bin/env bash
# Issue 21's first figure: one agent with one slot behind a loopback coordinator against
# `exocheck explore --workers 1`, side by side, on registry --workers K and pi --workers 5
# (TransDPOR + sleep sets, as when the figure was first taken). Each round runs every subject embedded then distributed,
# so that both see the machine in the same minutes. Prints each run's paths per second, the ratio
# distributed / embedded per subject (median over the rounds), and the coordinator's CPU per path
# (per round, and over all rounds: a clock tick is coarse for a short job).
# A benchmark, not a test: it prints figures.
#   usage: tests/bench/distributed_vs_embedded.sh [BUILD_DIR] [ROUNDS] [K] [PORT]
set -euo pipefail
build=${1:-build}
rounds=${2:-3}
k=${3:-7}
port=${4:-7797}
source "$(dirname "$0")/loopback_daemons.sh"
start_loopback_daemons "$build" "$port" 1
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
subjects=("registry --workers $k" "pi --workers 5")
run() {  # MODE SUBJECT...: prints "paths paths_per_second coordinator_ticks"
  local mode=$1
  shift
  local where=(--workers 1)
  [ "$mode" = distributed ] && where=(--coordinator "127.0.0.1:$port")
  local c0 c1
  c0=$(ticks "$coordinator")
  "$build/bin/exocheck" explore "${where[@]}" --strategy systematic --reduction transdpor --json --out "$work/out" -- "$build/bin/$1" "${@:2}" \
    >"$work/job.json" 2>"$work/job.err" || { echo "$mode $* failed: $(tail -n 1 "$work/job.err")" >&2; exit 1; }
  c1=$(ticks "$coordinator")
  echo "$(field paths <"$work/job.json") $(field paths_per_second <"$work/job.json") $((c1 - c0))"
}
# Warm-up: the agent's fork server and the subject's digest, not measured.
for subject in "${subjects[@]}"; do run distributed $subject >/dev/null; done
for subject in "${subjects[@]}"; do : >"$work/ratios.${subject%% *}"; : >"$work/coordinator.${subject%% *}"; done
for round in $(seq 1 "$rounds"); do
  for subject in "${subjects[@]}"; do
    read -r ep er _ < <(run embedded $subject)
    read -r dp dr dc < <(run distributed $subject)
    awk -v round="$round" -v s="$subject" -v ep="$ep" -v er="$er" -v dp="$dp" -v dr="$dr" -v dc="$dc" -v hz="$hz" 'BEGIN {
      printf "round %d, %s: embedded --workers 1 %d paths, %.0f paths/s; distributed (1 agent, 1 slot) %d paths, %.0f paths/s; ratio %.3f; coordinator CPU %.2f us per path\n",
        round, s, ep, er, dp, dr, dr / er, dc * 1e6 / hz / dp
    }'
    awk -v er="$er" -v dr="$dr" 'BEGIN { printf "%.4f\n", dr / er }' >>"$work/ratios.${subject%% *}"
    echo "$dp $dc" >>"$work/coordinator.${subject%% *}"
  done
done
for subject in "${subjects[@]}"; do
  sort -n "$work/ratios.${subject%% *}" | awk -v s="$subject" '{ r[NR] = $1 } END {
    printf "%s: median ratio distributed / embedded %.3f over %d rounds (lowest %.3f, highest %.3f)\n", s, r[int((NR + 1) / 2)], NR, r[1], r[NR]
  }'
  # A clock tick is 10 ms: per path, the coordinator's CPU is read over every round's paths.
  awk -v s="$subject" -v hz="$hz" '{ p += $1; c += $2 } END {
    printf "%s: coordinator CPU %.2f us per path over %d distributed paths (%d ticks of %.0f ms, job hand-over included)\n", s, c * 1e6 / hz / p, p, c, 1000 / hz
  }' "$work/coordinator.${subject%% *}"
done
