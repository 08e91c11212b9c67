#!/usr/bin/env bash
# Two builds of exocheck side by side on one exploration, as whole processes: ROUNDS runs of each,
# alternating (A B A B ...), so that both see the machine in the same minutes. Prints each build's
# median wall seconds and the ratio A / B of the medians. For "no slower than before": build the
# earlier commit in a worktree with the same flags and give its build folder as B.
#   tests/bench/ab_builds.sh BUILD_A BUILD_B [ROUNDS] [SUBJECT ARGS...]
# (default: 7 rounds of `exocheck explore --workers 1 --reduction transdpor -- registry --workers=7`;
# TransDPOR by name, as the default reduction changed with issue 34)
set -euo pipefail
a=$1
b=$2
rounds=${3:-7}
shift $(($# < 3 ? $# : 3))
subject=("$@")
[ ${#subject[@]} -eq 0 ] && subject=(registry --workers=7)

wall() {  # build folder: one run's wall seconds
  /usr/bin/time -f "%e" "$1/bin/exocheck" explore --workers 1 --strategy systematic --reduction transdpor -- "$1/bin/${subject[0]}" \
    "${subject[@]:1}" \
    2>&1 >/dev/null | tail -n 1
}

walls_a=()
walls_b=()
for ((round = 0; round < rounds; ++round)); do
  walls_a+=("$(wall "$a")")
  walls_b+=("$(wall "$b")")
done
python3 - "${walls_a[*]}" "${walls_b[*]}" "$a" "$b" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"A {sys.argv[3]}: median {ma:.3f} s (min {min(a):.3f}, max {max(a):.3f})")
print(f"B {sys.argv[4]}: median {mb:.3f} s (min {min(b):.3f}, max {max(b):.3f})")
print(f"A / B: {ma / mb:.3f}")
PY
