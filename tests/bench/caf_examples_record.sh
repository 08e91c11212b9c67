#!/usr/bin/env bash
# The example programs CAF 0.17.6 ships (the 20 caf_examples.sh explores), built unmodified against
# Debian's libcaf-dev, run freely under `exocheck record --always` (CAF's own scheduler, the adapter
# preloaded), and each saved trace replayed under control: per program how the free run ended, its
# recorded steps, and whether the replay reproduced it (or what `record` refused, named).
#   tests/bench/caf_examples_record.sh CAF_EXAMPLES_DIR [BUILD_DIR] [TIMEOUT_SECONDS]
# CAF_EXAMPLES_DIR: the examples/ folder of a CAF 0.17.6 checkout.
set -euo pipefail
examples=${1:?usage: caf_examples_record.sh CAF_EXAMPLES_DIR [BUILD_DIR] [TIMEOUT_SECONDS]}
build=${2:-build}
timeout=${3:-10}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# shellcheck source=caf_example_programs.sh
source "$(dirname "$0")/caf_example_programs.sh"

echo "| example | record exit | free run | steps | replay |"
echo "|---|---|---|---|---|"
for program in "${caf_example_programs[@]}"; do
  name=${program//\//_}
  if ! build_caf_example "$examples" "$program" "$out"; then
    echo "| $program | | not built | | |"
    continue
  fi
  status=0
  "$build/bin/exocheck" record --always --json --timeout "$timeout" --out "$out/$name.rec" -- "$out/$name" \
    >"$out/$name.json" 2>"$out/$name.err" </dev/null || status=$?
  replay=""
  trace=$(python3 -c 'import json,sys
try: print(json.load(open(sys.argv[1]))["trace"] or "")
except Exception: print("")' "$out/$name.json")
  if [ -n "$trace" ]; then
    replay=$("$build/bin/exocheck" replay "$trace" 2>&1 </dev/null | grep -E '^Replay:|error:' | head -1 || true)
  fi
  python3 - "$program" "$status" "$out/$name.json" "$out/$name.err" "$replay" <<'PY'
import json, sys
program, status, json_path, err_path, replay = sys.argv[1:6]
def cell(text):
    return " ".join(text.replace("|", "/").split())[:200]
try:
    report = json.load(open(json_path))
    run, steps = report["status"], str(report["steps"])
except Exception:
    lines = [l for l in open(err_path, errors="replace") if "error:" in l]
    run, steps = "refused: " + cell(lines[-1].split("error: ", 1)[-1] if lines else "(no report)"), ""
print(f"| {program} | {status} | {cell(run)} | {steps} | {cell(replay)} |")
PY
done
