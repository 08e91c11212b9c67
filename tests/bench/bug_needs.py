#!/usr/bin/env python3
"""What each bug needs (issue 51), checked against the exploration it predicts.

Explores each subject under subjects/ (its default arguments, the default options, --keep-going)
and, for each case of CASES, a subject with a fault budget; prints per distinct bug what it needs
(explore's "needs:", found by replays). Then each need is checked by exploring the subject again
where it cannot happen: a delivery that is not FIFO under --delivery fifo, one weaker than causal
under --delivery causal, a timer firing early under --timers quiescent, a fault without the
budget; a bug that needs nothing unlikely under --delivery causal. The bug should be gone in the
first cases and found in the last ("consistent"). One markdown table.

  tests/bench/bug_needs.py [--bin build/bin] [--time-limit 10]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

# (subject, options): subjects whose bugs need a fault.
CASES = [
    ("two-phase-commit", ["--crash", "1", "--crash-types", "Coordinator"]),
    ("primary-backup", ["--timers", "quiescent", "--lose", "1", "--lossy-types", "ForwardAck,WriteAck"]),
]
FAULT_FLAGS = {"--crash", "--crash-types", "--lose", "--lossy-types", "--duplicate", "--partition"}


def explore(binary, subject, options, limit, out):
    command = [os.path.join(binary, "exocheck"), "explore", "--keep-going", "--json", "--time-limit", str(limit),
               "--out", out] + options + ["--", os.path.join(binary, subject)]
    done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        return None


def without_faults(options):
    kept, skip = [], False
    for option in options:
        if skip:
            skip = False
            continue
        if option in FAULT_FLAGS:
            skip = True
            continue
        kept.append(option)
    return kept


def stronger(options, needs):
    """The options under which the bug's needs cannot happen, and whether it should still be found."""
    if not needs:
        # Not --timers quiescent: it orders apart timers that fall due together (election's two
        # equal timeouts), which real clocks do not.
        return without_faults(options) + ["--delivery", "causal"], True
    text = " ".join(needs)
    if "a crash of" in text or "the loss of" in text or "a copy of" in text or "the link cut" in text:
        return without_faults(options), False
    if "not FIFO" in text:
        return options + ["--delivery", "fifo"], False
    if "weaker than causal" in text:
        return options + ["--delivery", "causal"], False
    return options + ["--timers", "quiescent"], False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--time-limit", type=int, default=10)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    names = set()
    for path in glob.glob(os.path.join(here, "..", "..", "subjects", "**", "CMakeLists.txt"), recursive=True):
        names.update(re.findall(r"exocheck_add_(?:caf_)?subject\(([A-Za-z0-9_-]+)", open(path).read()))
    runs = [(name, []) for name in sorted(names) if os.access(os.path.join(args.bin, name), os.X_OK)] + CASES
    print("| subject | options | bug | status | needs | checked under | bug there | consistent |")
    print("|---|---|---|---|---|---|---|---|")
    bugs = consistent = 0
    with tempfile.TemporaryDirectory() as scratch:
        for subject, options in runs:
            summary = explore(args.bin, subject, options, args.time_limit, os.path.join(scratch, "out"))
            for bug in (summary or {}).get("bugs", []):
                needs = (bug.get("needs") or {}).get("conditions", [])
                check, found_expected = stronger(options, needs)
                again = explore(args.bin, subject, check, args.time_limit, os.path.join(scratch, "check"))
                signature = bug["signature"]
                found = any(other["signature"] == signature for other in (again or {}).get("bugs", []))
                bugs += 1
                consistent += found == found_expected
                print("| {} | {} | {} | {} | {} | `{}` | {} | {} |".format(
                    subject, " ".join(options), bug["number"], bug["status"],
                    "; ".join(needs) if needs else "nothing unlikely", " ".join(check), "yes" if found else "no",
                    "yes" if found == found_expected else "NO"))
    print()
    print("bugs {}; needs consistent with the exploration where they cannot happen: {}".format(bugs, consistent))
    return 0 if bugs == consistent else 1


if __name__ == "__main__":
    sys.exit(main())
