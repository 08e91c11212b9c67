#!/usr/bin/env bash
# Every failure's trace replays to the same failure (issue 51): explores each subject under
# subjects/ with its default arguments and the default options but --keep-going, and, given CAF's
# examples folder, each of CAF 0.17.6's 20 example programs (caf_example_programs.sh) the same way;
# then replays every bug trace the exploration saved. One markdown table: per program the
# exploration's exit status and verdict, the bugs saved, how many replays reproduced their bug,
# and the first that did not, in replay's words; then the totals. A benchmark, not a test: it
# prints figures.
#   tests/bench/replay_every_bug.sh [BUILD_DIR] [TIME_LIMIT_SECONDS] [CAF_EXAMPLES_DIR]
# CAF_EXAMPLES_DIR: the examples/ folder of a CAF 0.17.6 checkout (caf_examples.sh says where).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
limit=${2:-10}
examples=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

programs=()
while read -r name; do
  [ -x "$build/bin/$name" ] && programs+=("$build/bin/$name")
done < <(grep -rhoE "exocheck_add_(caf_)?subject\([A-Za-z0-9_-]+" "$here/../../subjects" | sed 's/.*(//' | sort -u)
if [ -n "$examples" ]; then
  # shellcheck source=caf_example_programs.sh
  source "$here/caf_example_programs.sh"
  for program in "${caf_example_programs[@]}"; do
    if build_caf_example "$examples" "$program" "$out"; then programs+=("$out/${program//\//_}"); fi
  done
fi

echo "| program | exit | verdict | bugs | replayed | first not reproduced |"
echo "|---|---|---|---|---|---|"
total_bugs=0
total_reproduced=0
for program in "${programs[@]}"; do
  name=$(basename "$program")
  status=0
  "$build/bin/exocheck" explore --keep-going --time-limit "$limit" --out "$out/$name.out" -- "$program" \
    >"$out/$name.log" 2>&1 </dev/null || status=$?
  verdict=$(grep -oE '^Summary: [a-z]+' "$out/$name.log" | cut -d' ' -f2 || true)
  [ -n "$verdict" ] || verdict=$([ "$status" = 2 ] && echo refused || echo "no summary")
  bugs=0
  reproduced=0
  first=""
  for trace in "$out/$name.out"/bug-*.trace; do
    [ -e "$trace" ] || continue
    case "$trace" in *.needs.trace | *.shrunk.trace | *-reference.trace) continue ;; esac
    bugs=$((bugs + 1))
    replay=$("$build/bin/exocheck" replay "$trace" 2>&1 </dev/null || true)
    if grep -q '^Replay: reproduced' <<<"$replay"; then
      reproduced=$((reproduced + 1))
    elif [ -z "$first" ]; then
      first="$(basename "$trace"): $(grep -E '^Replay:' <<<"$replay" | head -n1 | tr '|' '/' | cut -c1-150)"
    fi
  done
  total_bugs=$((total_bugs + bugs))
  total_reproduced=$((total_reproduced + reproduced))
  echo "| $name | $status | $verdict | $bugs | $reproduced | $first |"
done
echo
echo "programs ${#programs[@]}; bugs saved $total_bugs; replays reproduced $total_reproduced"
