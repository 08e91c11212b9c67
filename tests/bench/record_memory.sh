#!/usr/bin/env bash
# What recording a free run keeps of the actors that ended: a CAF program that spawns per request
# (caf_faults --churn=N: N workers one after another, each answers one request and quits) run
# freely with recording on (EXOCHECK_RECORD, the CAF adapter preloaded, as `exocheck record` does)
# for SMALL and for LARGE workers; its peak resident memory each time, the bytes it grew by per
# worker more, and the steps the log holds (read back by `exocheck record --from`).
#   tests/bench/record_memory.sh [BUILD_DIR] [SMALL] [LARGE]
set -euo pipefail
build=${1:-build}
small=${2:-2000}
large=${3:-50000}
bin=$(cd "$build/bin" && pwd)
adapter=$(cd "$build/lib" && pwd)/libexocheck_caf.so
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "| workers | peak memory (KiB) | steps recorded |"
echo "|---|---|---|"
declare -A peak
for workers in "$small" "$large"; do
  EXOCHECK_RECORD="$out/$workers.log" LD_PRELOAD="$adapter" /usr/bin/time -f '%M' -o "$out/$workers.rss" \
    "$bin/caf_faults" --churn="$workers" >/dev/null
  peak[$workers]=$(tail -1 "$out/$workers.rss")
  steps=$("$bin/exocheck" record --from "$out/$workers.log" --always --json --out "$out/$workers.rec" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["steps"])')
  echo "| $workers | ${peak[$workers]} | $steps |"
done
python3 -c "import sys; s, l, ps, pl = map(int, sys.argv[1:]); print(f'grew by {(pl - ps) * 1024 / (l - s):.1f} bytes per worker more')" \
  "$small" "$large" "${peak[$small]}" "${peak[$large]}"
