#!/usr/bin/env bash
# The main job: set up, build, and explore the registry subject completely (TransDPOR paper, Fig. 1)
# with persistent-set DPOR (24 paths) and with TransDPOR (10 paths), both reaching its 6 classes.
# One worker: the papers count paths of a depth-first exploration in order.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${EXOCHECK_BUILD_DIR:-$here/build}
bash "$here/deploy/build.sh" --main
for reduction in dpor transdpor; do
  echo "== exocheck explore --strategy systematic --reduction $reduction --no-sleep-sets -- registry"
  "$build/bin/exocheck" explore --workers 1 --strategy systematic --reduction "$reduction" --no-sleep-sets \
    --out "$build/explore-registry-$reduction" \
    -- "$build/bin/registry"
done
