#!/usr/bin/env python3
"""The default strategy (a portfolio) completes what the systematic strategy completes alone.

For each subject, with its --fixed variant where it has one: `exocheck explore --json --keep-going`
with `--strategy systematic` within SECONDS, then with no --strategy (the default, --seed 1) within
three times SECONDS (with the default's two workers, half its items are sampled runs, so a program
the systematic strategy completes in t seconds takes the portfolio about 2 t). Prints one markdown
table: each side's verdict, classes, distinct bugs and seconds, the default's sampled runs, and
whether the verdicts and classes are the same wherever the systematic strategy completed.

  tests/bench/default_completes.py [--bin build/bin] [--seconds 10] [--only registry]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# (subject, its arguments)
SUBJECTS = [
    ("registry", []), ("registry", ["--workers", "5"]), ("pi", []), ("fib", []), ("clientserver", []),
    ("quicksort", []), ("spinsort", []), ("diningphil", []), ("futures-deadlock", []), ("chameneos", []),
    ("shortpath", []), ("gcl-determinism", []), ("futures-datarace", []), ("futures-dataproc", []),
    ("pipesort", []), ("leader", []), ("regsim", []), ("regsim-2-level", []), ("serverreal", []),
    ("minesweeper", []), ("election", []), ("election", ["--fixed"]), ("retry", []), ("retry", ["--fixed"]),
    ("primary-backup", []), ("primary-backup", ["--fixed"]), ("two-phase-commit", []),
    ("two-phase-commit", ["--fixed"]), ("session-cache", []), ("session-cache", ["--fixed"]),
    ("kv-quorum", []), ("mutex", []), ("proxy", []), ("workers", []), ("le-erlang", []),
    ("caf-bank", []), ("caf-bank", ["--fixed"]), ("caf-batcher", []), ("caf-blocking", ["--fixed"]),
    ("caf-phases", []), ("caf-philosophers", []), ("caf-pipeline", []), ("caf-registry", []),
    ("caf-relay", []), ("caf-retry", []), ("caf-scoped", []), ("caf-stream", []), ("caf-supervisor", []),
]


def explore(bin_dir, subject, args, options, seconds):
    with tempfile.TemporaryDirectory() as out:
        command = [os.path.join(bin_dir, "exocheck"), "explore", "--json", "--keep-going", "--time-limit",
                   str(seconds), "--out", os.path.join(out, "o")] + options + [
                       "--", os.path.join(bin_dir, subject)] + args
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode not in (0, 1, 3):
            sys.exit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr}")
        return json.loads(done.stdout)


def cell(summary):
    stats = summary["stats"]
    verdict = "complete" if summary["complete"] else "bounded"
    return (f'{verdict}, {stats["classes"]:,} classes, {len(summary["bugs"])} bugs, '
            f'{stats["wall_seconds"]:.1f} s')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--only", default="")
    options = parser.parse_args()
    print("| subject | systematic | default (portfolio) | sampled runs | same |")
    print("|---|---|---|---|---|")
    for subject, args in SUBJECTS:
        name = " ".join([subject] + args)
        if options.only not in name or not os.path.exists(os.path.join(options.bin, subject)):
            continue
        alone = explore(options.bin, subject, args, ["--strategy", "systematic"], options.seconds)
        default = explore(options.bin, subject, args, ["--seed", "1"], 3 * options.seconds)
        if alone["complete"]:
            same = (default["complete"] and default["stats"]["classes"] == alone["stats"]["classes"]
                    and len(default["bugs"]) == len(alone["bugs"]))
            verdict = "yes" if same else "**no**"
        else:
            verdict = "(systematic bounded)"
        print(f'| {name} | {cell(alone)} | {cell(default)} | {default["stats"]["sampled_runs"]:,} | {verdict} |',
              flush=True)


if __name__ == "__main__":
    main()
