#!/usr/bin/env bash
# A soak: minesweeper (default board) explored for SECONDS (default 600) with the exhaustive
# reduction, no sleep sets and --keep-going, so that it neither ends nor stops at a bug, twice:
# embedded (`exocheck explore --workers 2`), then through a loopback coordinator (with a
# --state-dir) and two agents of one slot each. Once a second it samples the RSS (VmRSS) of the
# explorer, in the second mode of the coordinator and each agent, and of the largest minesweeper
# process descending from them. Prints, per mode and process: peak RSS, RSS at the mark (60 s;
# 10% of SECONDS for runs shorter than 600 s), RSS at the end and the growth after the mark (peak
# after it / RSS at it - 1); per mode: paths, distinct bugs, files and bytes in the out dir (and
# the coordinator's state dir), the explore command's exit status and its wall time past the
# limit; then one line of goals (explorer peak < 200 MiB, growth after the mark within 10%, time
# past the limit < 1 s, output < 10 MB) each met or not.
# A benchmark, not a test: it prints figures. KEEP=1 keeps its temporary folder (samples, logs,
# out dirs) and prints where it is.
# A third argument gives other reduction flags ("--reduction optimal": one path per class, where
# the classes the explorer counts grow with the paths).
#   usage: tests/bench/soak.sh [BUILD_DIR] [SECONDS] [REDUCTION_FLAGS]
set -euo pipefail
build=${1:-build}
seconds=${2:-600}
# The reduction's flags: exhaustive without sleep sets by default, where every path fails alike.
reduction=${3:---reduction exhaustive --no-sleep-sets}
command -v python3 >/dev/null || { echo "soak.sh: needs python3" >&2; exit 2; }
build=$(cd "$build" && pwd)
subject="$build/bin/minesweeper"
work=$(mktemp -d)
pids=()
cleanup() {
  local status=$?
  [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 1 50); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  [ "${#pids[@]}" -eq 0 ] || kill -9 "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "soak.sh: kept $work" >&2; else rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The pids of the minesweeper processes descending from the pids given.
subjects_under() {
  ps -e -o pid=,ppid=,comm= | awk -v roots="$*" '
    { parent[$1] = $2; name[$1] = $3 }
    END {
      n = split(roots, r, " "); for (i = 1; i <= n; i++) mine[r[i]] = 1
      do { grew = 0; for (p in parent) if (!(p in mine) && (parent[p] in mine)) { mine[p] = 1; grew = 1 } } while (grew)
      for (p in mine) if (name[p] == "minesweeper") print p
    }'
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || true; }

# sample MODE START ROLE=PID...: once a second, "MODE ELAPSED ROLE KIB" for each process alive and
# "MODE ELAPSED subject KIB" for the largest minesweeper under them, until the first PID ends.
sample() {
  local mode=$1 start=$2 watched=${3#*=}
  shift 2
  local n=0 now elapsed kib role pid max roots=()
  for pair in "$@"; do roots+=("${pair#*=}"); done
  while kill -0 "$watched" 2>/dev/null; do
    now=$(date +%s.%N)
    elapsed=$(awk -v a="$now" -v b="$start" 'BEGIN { printf "%.2f", a - b }')
    for pair in "$@"; do
      role=${pair%%=*} pid=${pair#*=}
      kib=$(rss_kib "$pid")
      [ -z "$kib" ] || echo "$mode $elapsed $role $kib"
    done
    max=
    for pid in $(subjects_under "${roots[@]}"); do
      kib=$(rss_kib "$pid")
      if [ -n "$kib" ] && { [ -z "$max" ] || [ "$kib" -gt "$max" ]; }; then max=$kib; fi
    done
    [ -z "$max" ] || echo "$mode $elapsed subject $max"
    n=$((n + 1))
    sleep "$(awk -v s="$start" -v n="$n" -v now="$(date +%s.%N)" 'BEGIN { d = s + n - now; printf "%.3f", (d > 0 ? d : 0) }')"
  done >>"$work/samples"
}

# explore MODE WHERE...: runs the soak's explore, sampling it and the daemons in $daemons
# (ROLE=PID words), and writes the mode's figures to $work/MODE.info.
explore() {
  local mode=$1
  shift
  local out="$work/out-$mode" status=0 start end
  start=$(date +%s.%N)
  "$build/bin/exocheck" explore "$@" --strategy systematic $reduction --keep-going \
    --time-limit "$seconds" --out "$out" -- "$subject" >"$work/explore-$mode.log" 2>&1 </dev/null &
  local explorer=$!
  pids+=("$explorer")
  # shellcheck disable=SC2086
  sample "$mode" "$start" "explore=$explorer" ${daemons:-} &
  local sampler=$!
  pids+=("$sampler")
  wait "$explorer" || status=$?
  end=$(date +%s.%N)
  wait "$sampler" || true
  {
    echo "status=$status"
    echo "wall=$(awk -v a="$end" -v b="$start" 'BEGIN { printf "%.3f", a - b }')"
    echo "files=$(find "$out" -type f 2>/dev/null | wc -l)"
    echo "bytes=$( (du -sb "$out" 2>/dev/null || echo 0) | cut -f1)"
    [ "$mode" != distributed ] || echo "state_bytes=$( (du -sb "$work/state" 2>/dev/null || echo 0) | cut -f1)"
  } >"$work/$mode.info"
  [ "$status" -le 1 ] || [ "$status" = 3 ] || echo "soak.sh: $mode explore exited $status: $(tail -n 1 "$work/explore-$mode.log")" >&2
}

: >"$work/samples"
echo "soak: minesweeper, $reduction, --keep-going, --time-limit $seconds s; $(nproc) cores" >&2
echo "mode 1 of 2: embedded, --workers 2" >&2
daemons=
explore embedded --workers 2

echo "mode 2 of 2: loopback coordinator, 2 agents of 1 slot" >&2
"$build/bin/exocheck-coordinator" --listen 127.0.0.1:0 --port-file "$work/port" --state-dir "$work/state" \
  >"$work/coordinator.log" 2>&1 &
coordinator=$!
pids+=("$coordinator")
for _ in $(seq 1 100); do
  [ -s "$work/port" ] && break
  kill -0 "$coordinator" 2>/dev/null || break
  sleep 0.1
done
[ -s "$work/port" ] || { echo "soak.sh: the coordinator did not listen: $(tail -n 3 "$work/coordinator.log")" >&2; exit 1; }
address="127.0.0.1:$(head -n 1 "$work/port")"
daemons="coordinator=$coordinator"
for i in 1 2; do
  "$build/bin/exocheck-agent" --coordinator "$address" --slots 1 --name "soak-agent-$i" --subjects-dir "$build/bin" \
    >"$work/agent-$i.log" 2>&1 &
  pids+=("$!")
  daemons+=" agent_$i=$!"
done
for _ in $(seq 1 100); do
  [ "$(grep -c ' attached with ' "$work/coordinator.log" || true)" -ge 2 ] && break
  sleep 0.1
done
[ "$(grep -c ' attached with ' "$work/coordinator.log" || true)" -ge 2 ] \
  || { echo "soak.sh: the agents did not attach: $(tail -n 3 "$work/coordinator.log")" >&2; exit 1; }
explore distributed --coordinator "$address"

python3 - "$work" "$seconds" <<'PY'
import json, os, sys
work, limit = sys.argv[1], float(sys.argv[2])
mark = min(60.0, limit / 10)
modes = ["embedded", "distributed"]
roles = {"embedded": ["explore", "subject"],
         "distributed": ["explore", "coordinator", "agent_1", "agent_2", "subject"]}
labels = {"explore": "explore", "coordinator": "coordinator", "agent_1": "agent 1",
          "agent_2": "agent 2", "subject": "subject max"}
samples = {}
for line in open(os.path.join(work, "samples")):
    mode, t, role, kib = line.split()
    samples.setdefault((mode, role), []).append((float(t), int(kib) / 1024))
mib = lambda x: "-" if x is None else f"{x:.1f}"
note = "60 s" if mark == 60 else f"{mark:g} s (10% of {limit:g} s: a run shorter than 600 s)"
print(f"RSS in MiB, sampled once a second; the mark: {note}")
print(f"| {'mode':<11} | {'process':<11} | {'samples':>7} | {'peak':>7} | {'at mark':>7} | {'end':>7} | {'growth after mark':>17} |")
print(f"|{'-' * 13}|{'-' * 13}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 19}|")
growths, explorer_peaks = [], []
for mode in modes:
    for role in roles[mode]:
        s = samples.get((mode, role), [])
        peak = max((r for _, r in s), default=None)
        after = [(t, r) for t, r in s if t >= mark]
        at_mark = after[0][1] if after else None
        end = s[-1][1] if s else None
        growth = None
        if at_mark:
            growth = 100 * (max(r for _, r in after) / at_mark - 1)
            growths.append((growth, f"{labels[role]} ({mode})"))
        if role == "explore" and peak is not None:
            explorer_peaks.append((peak, mode))
        g = "-" if growth is None else f"{growth:+.1f}%"
        print(f"| {mode:<11} | {labels[role]:<11} | {len(s):>7} | {mib(peak):>7} | {mib(at_mark):>7} | {mib(end):>7} | {g:>17} |")
print()
pasts, outputs = [], []
for mode in modes:
    info = dict(l.strip().split("=", 1) for l in open(os.path.join(work, mode + ".info")) if "=" in l)
    try:
        stats = json.load(open(os.path.join(work, "out-" + mode, "summary.json")))["stats"]
        figures = f"{stats['paths']} paths, {stats['bugs']} distinct bugs"
    except (OSError, ValueError, KeyError) as e:
        figures = f"no summary.json ({e.__class__.__name__})"
    past = float(info["wall"]) - limit
    pasts.append((past, mode))
    written = int(info["bytes"]) + int(info.get("state_bytes", 0))
    outputs.append((written, mode))
    state = f", state dir {int(info['state_bytes']):,} bytes" if "state_bytes" in info else ""
    print(f"{mode}: exit {info['status']}; {figures}; out dir {info['files']} files, {int(info['bytes']):,} bytes{state}; "
          f"wall {float(info['wall']):.2f} s, {past:+.2f} s past the limit")
met = lambda ok: "met" if ok else "NOT met"
peak = max(explorer_peaks, default=(None, "-"))
growth = max(growths, default=(None, "-"))
past = max(pasts)
written = max(outputs)
goals = [
    f"explorer peak < 200 MiB: {met(peak[0] is not None and peak[0] < 200)} (max {mib(peak[0])} MiB, {peak[1]})",
    f"growth after the mark <= 10%: {met(growth[0] is not None and growth[0] <= 10)} (max "
    + ("-" if growth[0] is None else f"{growth[0]:+.1f}%, {growth[1]}") + ")",
    f"time past the limit < 1 s: {met(past[0] < 1)} (max {past[0]:+.2f} s, {past[1]})",
    f"output < 10 MB: {met(written[0] < 10_000_000)} (max {written[0]:,} bytes, {written[1]}; state dir included)",
]
print("goals: " + "; ".join(goals))
PY
