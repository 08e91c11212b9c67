#!/usr/bin/env bash
# How soon a limit ends an exploration whose one run takes the explorer minutes to analyse: CAF's
# own dining_philosophers example (its philosophers eat and think for ever on timers, so the first
# run goes to the step limit with races all along it), built unmodified against Debian's
# libcaf-dev, explored three ways: embedded with --time-limit LIMIT; embedded with SIGTERM sent at
# LIMIT seconds; through a loopback coordinator and one agent with --time-limit LIMIT. Per way:
# the explore command's exit status, its wall time, and the time past the limit or the signal
# (goal: exit 3 within a second of it). Then one run explored and analysed alone: its wall time
# and peak memory.
# A benchmark, not a test: it prints figures.
#   usage: tests/bench/stop_latency.sh CAF_EXAMPLES_DIR [BUILD_DIR] [LIMIT_SECONDS] [PORT]
# CAF_EXAMPLES_DIR: the examples/ folder of a CAF 0.17.6 checkout (as for caf_examples.sh).
set -euo pipefail
examples=${1:?usage: stop_latency.sh CAF_EXAMPLES_DIR [BUILD_DIR] [LIMIT_SECONDS] [PORT]}
build=$(cd "${2:-build}" && pwd)
limit=${3:-20}
port=${4:-50961}

# shellcheck source=caf_example_programs.sh
source "$(dirname "$0")/caf_example_programs.sh"

program=dynamic_behavior/dining_philosophers
subjects=$(mktemp -d)
daemons=()
trap 'kill "${daemons[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$subjects"' EXIT
if ! build_caf_example "$examples" "$program" "$subjects"; then
  echo "stop_latency.sh: $program does not build:" >&2
  cat "$subjects/${program//\//_}.build" >&2
  exit 2
fi
subject="$subjects/${program//\//_}"

now() { date +%s.%N; }
# report WAY STATUS START END SINCE: one row of the table.
report() {
  awk -v way="$1" -v status="$2" -v start="$3" -v end="$4" -v since="$5" \
    'BEGIN { printf "| %s | %d | %.1f | %.1f |\n", way, status, end - start, end - since }'
}

echo "| way | exit | wall s | s past the limit or signal |"
echo "|---|---|---|---|"

start=$(now)
status=0
"$build/bin/exocheck" explore --time-limit "$limit" --out "$subjects/limit.out" -- "$subject" \
  >"$subjects/limit.txt" 2>"$subjects/limit.err" </dev/null || status=$?
end=$(now)
report "embedded, --time-limit ${limit}s" "$status" "$start" "$end" "$(awk -v s="$start" -v l="$limit" 'BEGIN { printf "%.3f", s + l }')"

start=$(now)
status=0
"$build/bin/exocheck" explore --out "$subjects/term.out" -- "$subject" \
  >"$subjects/term.txt" 2>"$subjects/term.err" </dev/null &
explore=$!
sleep "$limit"
signalled=$(now)
kill -TERM "$explore"
wait "$explore" || status=$?
end=$(now)
report "embedded, SIGTERM at ${limit} s" "$status" "$start" "$end" "$signalled"

# The agent runs what lies under its --subjects-dir: the example's folder.
"$build/bin/exocheck-coordinator" --listen "127.0.0.1:$port" >"$subjects/coordinator.log" 2>&1 &
daemons+=($!)
sleep 0.5
"$build/bin/exocheck-agent" --coordinator "127.0.0.1:$port" --slots 2 --subjects-dir "$subjects" \
  >"$subjects/agent.log" 2>&1 &
daemons+=($!)
sleep 0.5
start=$(now)
status=0
"$build/bin/exocheck" explore --coordinator "127.0.0.1:$port" --time-limit "$limit" --out "$subjects/remote.out" \
  -- "$subject" >"$subjects/remote.txt" 2>"$subjects/remote.err" </dev/null || status=$?
end=$(now)
report "loopback coordinator, --time-limit ${limit}s" "$status" "$start" "$end" "$(awk -v s="$start" -v l="$limit" 'BEGIN { printf "%.3f", s + l }')"

# One run to the step limit, explored and analysed alone (--max-paths 1): its wall time and the
# explorer's peak RSS (wait4's, the largest of the command and what it waited for).
python3 - "$build/bin/exocheck" "$subject" "$subjects" <<'PY'
import os, subprocess, sys, time
exocheck, subject, work = sys.argv[1:4]
start = time.monotonic()
with open(f"{work}/one.txt", "w") as out, open(f"{work}/one.err", "w") as err:
    child = subprocess.Popen([exocheck, "explore", "--max-paths", "1", "--out", f"{work}/one.out", "--", subject],
                             stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - start
print(f"\none run explored and analysed (--max-paths 1): exit {os.waitstatus_to_exitcode(status)}, "
      f"{wall:.2f} s, peak RSS {usage.ru_maxrss / 1024:.0f} MiB")
PY

echo
for way in limit term remote one; do
  echo "$way: $(grep -m1 '^Summary' "$subjects/$way.txt" || echo 'no summary')"
done
