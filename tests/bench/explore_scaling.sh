#!/usr/bin/env bash
# Exploration throughput with 1 and 2 local workers on pi --workers 5: paths/s, the speedup, and
# the paths each explores (redundancy from parallelism = paths with 2 workers / paths with 1).
# Two explorations: DPOR with LCA and no sleep sets (19,845 paths: the throughput figure), and
# TransDPOR with LCA with and without sleep sets (120 and 945 paths: TransDPOR's freeze flags are
# what parallelism can upset). A benchmark, not a test: it prints figures.
#   usage: tests/bench/explore_scaling.sh [BUILD_DIR] [extra explore options...]
set -euo pipefail
build=${1:-build}
shift || true
field() { sed -n "s/^ *\"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" | head -n 1; }
scale() {
  local label=$1
  shift
  declare -A paths rate
  for workers in 1 2; do
    json=$("$build/bin/exocheck" explore --workers "$workers" --strategy systematic --json "$@" -- "$build/bin/pi" --workers 5 2>/dev/null ||
      true)
    paths[$workers]=$(field paths <<<"$json")
    rate[$workers]=$(field paths_per_second <<<"$json")
    printf '%s, workers %d: %s paths, %s classes, %.1f s, %.0f paths/s\n' "$label" "$workers" "${paths[$workers]}" \
      "$(field classes <<<"$json")" "$(field wall_seconds <<<"$json")" "${rate[$workers]}"
  done
  awk -v l="$label" -v r1="${rate[1]}" -v r2="${rate[2]}" -v p1="${paths[1]}" -v p2="${paths[2]}" \
    'BEGIN { printf "%s: speedup (2 vs 1 worker) %.2f; parallel redundancy (paths 2 / paths 1) %.3f\n", l, r2 / r1, p2 / p1 }'
}
scale "pi 5 dpor lca" --reduction dpor --heuristic lca --no-sleep-sets "$@"
scale "pi 5 transdpor lca" --reduction transdpor --heuristic lca --no-sleep-sets "$@"
scale "pi 5 transdpor lca + sleep sets" --reduction transdpor --heuristic lca --sleep-sets "$@"
