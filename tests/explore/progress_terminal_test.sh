#!/usr/bin/env bash
# `explore` on a terminal, as a person meets it: under tmux, the progress line shows a bar with
# the share of the tree explored and, on the default (a portfolio), the sampled runs beside the
# paths; it is rewritten in place (one line, never wrapped, whatever the width), and is gone when
# the report is printed.
# Usage: progress_terminal_test.sh BIN_DIR ARTIFACTS_DIR
set -euo pipefail
bin=$(cd "$1" && pwd)
artifacts=$2
command -v tmux >/dev/null || { echo "FAIL: tmux is not installed (deploy/setup.sh installs it)"; exit 1; }
mkdir -p "$artifacts"
work=$(mktemp -d)
socket="exocheck-progress-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

# Registry with 8 workers, one exploring thread, stopped after 6 s: 362,880 classes, more than any
# machine explores in that time, so the live line shows for 6 s however fast or loaded the machine
# is (a complete registry of 7 took under a second to its last sample on a loaded CI machine).
explore_on_terminal() {  # WIDTH: runs, samples the pane; leaves $work/samples-WIDTH and $work/final-WIDTH
  local width=$1 samples="$work/samples-$1" final="$work/final-$1"
  rm -f "$work/exit"
  : >"$samples"
  tmux -L "$socket" -f /dev/null new-session -d -x "$width" -y 20 -s "w$width" \
    "cd '$work' && '$bin/exocheck' explore --workers 1 --time-limit 6s --out 'out-$width' -- '$bin/registry' --workers 8; echo \$? >'$work/exit'; sleep 600"
  local deadline=$((SECONDS + 240))
  while [ ! -s "$work/exit" ]; do
    [ $SECONDS -lt $deadline ] || fail "explore did not end within 240 s"
    local pane
    pane=$(tmux -L "$socket" capture-pane -p -t "w$width")
    [ -s "$work/exit" ] && break  # the report may be in this capture: not a sample of the live line
    # The report is printed before the exit status is written: once it shows, the live line is over.
    grep -q '^Exploring: ' <<<"$pane" && break
    local lines
    lines=$(printf '%s\n' "$pane" | grep -c . || true)
    [ "$lines" -le 1 ] || fail "width $width: $lines lines on the terminal while exploring, one expected:
$pane"
    printf '%s\n' "$pane" | grep . >>"$samples" || true
    sleep 0.1
  done
  # The report shows a moment before the shell writes the exit status: wait for it before the end.
  while [ ! -s "$work/exit" ]; do
    [ $SECONDS -lt $deadline ] || fail "explore did not end within 240 s"
    sleep 0.1
  done
  tmux -L "$socket" capture-pane -p -J -t "w$width" >"$final"  # -J: the summary line, wrapped, joined
  tmux -L "$socket" kill-session -t "w$width"
  # 3: stopped by --time-limit before the exploration was complete.
  [ "$(cat "$work/exit")" = 3 ] || fail "width $width: explore exited with $(cat "$work/exit"), 3 expected"
}

for width in 120 60; do
  explore_on_terminal "$width"
  samples="$work/samples-$width"
  final="$work/final-$width"
  cp "$samples" "$artifacts/progress-$width.samples.txt"
  cp "$final" "$artifacts/progress-$width.final.txt"
  bars=$(grep -cE '^\[[#-]{20}\] +[0-9]{1,3}%' "$samples" || true)
  [ "$bars" -ge 3 ] || fail "width $width: $bars samples of the progress bar, at least 3 expected: $(head -3 "$samples")"
  longest=$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$samples")
  [ "$longest" -lt "$width" ] || fail "width $width: a progress line of $longest columns on a terminal of $width"
  # The share moves, and is strictly between 0 and 100 at some point (races found later add choices,
  # so it may also go down).
  grep -oE '^\[[#-]{20}\] +[0-9]{1,3}%' "$samples" | grep -oE '[0-9]+%$' | tr -d % >"$work/percents"
  [ "$(sort -u "$work/percents" | wc -l)" -ge 2 ] ||
    fail "width $width: the share explored never moved: $(tr '\n' ' ' <"$work/percents")"
  awk '$1 > 0 && $1 < 100 { found = 1 } END { exit !found }' "$work/percents" ||
    fail "width $width: no share strictly between 0 and 100%: $(tr '\n' ' ' <"$work/percents")"
  if [ "$width" -ge 100 ]; then
    grep -qE '~[0-9hms]+ left \| [0-9]+ paths \(\+[0-9]+ sampled\), ' "$samples" ||
      fail "width $width: no estimate of the time left, or no sampled runs beside the paths"
  fi
  # The report replaces the live line: no bar left on the terminal.
  grep -qE 'Summary: incomplete, [0-9]+ paths, .* \([0-9]+ sampled runs beside\)$' "$final" ||
    fail "width $width: no summary: $(cat "$final")"
  ! grep -qE '\[[#-]{20}\]' "$final" || fail "width $width: the progress line stayed after the report"
  echo "width $width: $bars samples of the bar, shares $(sort -n -u "$work/percents" | tr '\n' ' ')"
done
echo "PASS"
