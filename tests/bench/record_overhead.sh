#!/usr/bin/env bash
# The cost of recording a free run (exocheck record, EXOCHECK_RECORD): the thread-pool runtime's
# messages per second with recording off and on, interleaved in ROUNDS rounds so that drift of the
# machine's speed hits both alike; medians and their ratio. pingpong: one ball bounced STEPS times
# (one message per step); registry: a whole run of `registry --workers 7` (its messages counted
# from a recording), started RUNS times per round, process start included.
#   tests/bench/record_overhead.sh [BUILD_DIR] [ROUNDS] [STEPS] [RUNS]
set -euo pipefail
build=${1:-build}
rounds=${2:-9}
steps=${3:-1000000}
runs=${4:-100}
bin=$(cd "$build/bin" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

seconds() {  # COMMAND...: wall seconds of running it
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  python3 -c "print(($end - $start) / 1e9)"
}
registry_runs() {
  for _ in $(seq "$runs"); do "$bin/registry" --workers 7; done
}
median() { python3 -c 'import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

out=$(mktemp -d)
trap 'rm -rf "$log" "$out"' EXIT
per_run=$("$bin/exocheck" record --always --json --out "$out" -- "$bin/registry" --workers 7 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["steps"])')
declare -a ping_off ping_on reg_off reg_on
for _ in $(seq "$rounds"); do
  ping_off+=("$(seconds "$bin/pingpong" --steps "$steps")")
  : >"$log"
  ping_on+=("$(seconds env EXOCHECK_RECORD="$log" "$bin/pingpong" --steps "$steps")")
  reg_off+=("$(seconds registry_runs)")
  : >"$log"
  reg_on+=("$(EXOCHECK_RECORD="$log" seconds registry_runs)")
done
python3 - "$steps" "$runs" "$per_run" "$(median "${ping_off[@]}")" "$(median "${ping_on[@]}")" \
  "$(median "${reg_off[@]}")" "$(median "${reg_on[@]}")" <<'PY'
import sys
steps, runs, per_run = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ping_off, ping_on, reg_off, reg_on = map(float, sys.argv[4:8])
print("| program | recording off: messages/s | recording on: messages/s | on / off |")
print("|---|---|---|---|")
print(f"| pingpong --steps {steps} | {steps / ping_off:,.0f} | {steps / ping_on:,.0f} | {ping_off / ping_on:.2f} |")
messages = per_run * runs
print(f"| registry --workers 7 ({per_run} messages), {runs} runs | {messages / reg_off:,.0f} | {messages / reg_on:,.0f} | {reg_off / reg_on:.2f} |")
PY
