#!/usr/bin/env bash
# The example programs CAF 0.17.6 ships (the 20 that need no network, GUI or curl), built unmodified
# against Debian's libcaf-dev and explored by exocheck with --strategy systematic and otherwise its
# defaults: per program the exit status, the verdict (complete / bug / bounded / refused), classes,
# bugs and the reason (the first bug's status and detail, the refusal, or what bounded it). One markdown table; whether each
# verdict is right is for a person to say (the examples' sources beside it).
#   tests/bench/caf_examples.sh CAF_EXAMPLES_DIR [BUILD_DIR] [TIME_LIMIT_SECONDS]
# CAF_EXAMPLES_DIR: the examples/ folder of a CAF 0.17.6 checkout
#   (git clone -b 0.17.6 https://github.com/actor-framework/actor-framework).
set -euo pipefail
examples=${1:?usage: caf_examples.sh CAF_EXAMPLES_DIR [BUILD_DIR] [TIME_LIMIT_SECONDS]}
build=${2:-build}
limit=${3:-20}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# shellcheck source=caf_example_programs.sh
source "$(dirname "$0")/caf_example_programs.sh"

echo "| example | exit | verdict | classes | bugs | reason |"
echo "|---|---|---|---|---|---|"
for program in "${caf_example_programs[@]}"; do
  name=${program//\//_}
  if ! build_caf_example "$examples" "$program" "$out"; then
    echo "| $program | | not built | | | $(head -c 120 "$out/$name.build" | tr '\n|' '  ') |"
    continue
  fi
  status=0
  "$build/bin/exocheck" explore --json --strategy systematic --time-limit "$limit" --out "$out/$name.out" -- "$out/$name" \
    >"$out/$name.json" 2>"$out/$name.err" </dev/null || status=$?
  python3 - "$program" "$status" "$out/$name.json" "$out/$name.err" <<'PY'
import json, sys
program, status, json_path, err_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def cell(text):
    return " ".join(text.replace("|", "/").split())[:160]
try:
    summary = json.load(open(json_path))
except ValueError:
    summary = None
err = open(err_path, errors="replace").read().strip().splitlines()
if summary is None:
    verdict = "refused" if status == 2 else f"no report (exit {status})"
    print(f"| {program} | {status} | {verdict} | | | {cell(err[-1] if err else '')} |")
    sys.exit()
stats = summary["stats"]
bugs = summary["bugs"]
verdict = {0: "complete", 1: "bug", 3: "bounded"}.get(status, summary["verdict"])
reason = ""
if bugs:
    reason = bugs[0].get("status", "") + ": " + bugs[0].get("detail", "")
elif status == 3:
    reason = summary["summary"]
print(f"| {program} | {status} | {verdict} | {stats.get('classes', '')} | {len(bugs)} | {cell(reason)} |")
PY
done
