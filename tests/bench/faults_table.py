#!/usr/bin/env python3
"""Bugs that need a fault (DESIGN.md, "Faults"): executions to the first bug, classes, wall time.

For each case (a subject that fails only when the explorer injects a fault, its fault budget, the
bug sought): the executions to the first such bug under optimal DPOR (the default, one worker: the
path that first hit it), under --strategy random and --strategy pct over seeds 1..SEEDS (the run
that first hit it: found, fewest, median, most); then the whole exploration of the buggy variant
(--keep-going: classes, distinct bugs, wall time) and of its --fixed variant under the same budget
(classes, bugs, wall time); and the buggy variant without the budget, under the case's other options
(no bug expected). Prints one
markdown table. Executions are exact (one worker); wall times are not.

  tests/bench/faults_table.py [--bin build/bin] [--seeds 20] [--only two-phase]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runs_to_bug import describe, first_hit, sampled_first_hit  # noqa: E402

# (name, subject, subject args, other options, fault budget, text of the bug sought, runs per seed)
CASES = [
    ("two-phase-commit", "two-phase-commit", [], [], ["--crash", "1", "--crash-types", "Coordinator"],
     "participants decided differently", 5000),
    ("primary-backup", "primary-backup", [], ["--timers", "quiescent"],
     ["--lose", "1", "--lossy-types", "ForwardAck,WriteAck"], "applied twice", 5000),
    # One replica may crash: in FIFO order (a write in flight is not overtaken by the read) the
    # crash needs the loss; unordered, or with every replica crashable, it does not.
    ("kv-quorum", "kv-quorum", [], ["--delivery", "fifo"],
     ["--crash", "1", "--crash-actors", "1", "--lose", "1", "--lossy-types", "Write"], "read returned", 5000),
    ("kv-quorum, every replica", "kv-quorum", [], [],
     ["--crash", "1", "--crash-types", "Replica", "--lose", "1", "--lossy-types", "Write"], "read returned", 5000),
    # The issue's partition as such: replica 0's side cut off at a send and healed at a later one.
    ("kv-quorum, partition", "kv-quorum", [], ["--delivery", "fifo"],
     ["--crash", "1", "--crash-actors", "1", "--partition", "1", "--partition-side", "0"], "read returned", 5000),
    # A CAF program: the crash ends the CAF actor, whose down message and request_receiver_down follow.
    ("caf-supervisor", "caf-supervisor", [], [], ["--crash", "1", "--crash-types", "worker"], "results.size()", 5000),
]


def whole(bin_dir, subject, args, options):
    """Explores completely: (classes, distinct bugs, complete, seconds)."""
    with tempfile.TemporaryDirectory() as out:
        command = [os.path.join(bin_dir, "exocheck"), "explore", "--json", "--workers", "1", "--strategy", "systematic", "--keep-going",
                   "--out", os.path.join(out, "o")] + options + ["--", os.path.join(bin_dir, subject)] + args
        start = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.monotonic() - start
        if done.returncode not in (0, 1, 3):
            sys.exit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr}")
        summary = json.loads(done.stdout)
    return summary["stats"]["classes"], summary["stats"]["bugs"], summary["complete"], seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--only", default="", help="only the cases whose name contains this")
    options = parser.parse_args()
    print("| subject | budget | optimal: executions to the bug | random (found; fewest / median / most) "
          "| PCT (found; fewest / median / most) | classes, bugs, wall (buggy) | classes, bugs, wall (--fixed) "
          "| bugs without the budget |")
    print("|---|---|---|---|---|---|---|---|")
    for name, subject, args, settings, faults, wanted, runs in CASES:
        if options.only not in name:
            continue
        budget = settings + faults
        hit, paths = first_hit(options.bin, subject, args, wanted, budget)
        systematic = f"{hit:,}" if hit is not None else f"not within {paths:,}"
        sampled = {}
        for strategy in ("random", "pct"):
            hits = [sampled_first_hit(options.bin, subject, args, wanted,
                                      budget + ["--strategy", strategy, "--seed", str(seed)], runs)
                    for seed in range(1, options.seeds + 1)]
            found, fewest, median, most = describe(hits, runs, options.seeds)
            sampled[strategy] = f"{found}; {fewest} / {median} / {most}" if fewest else found
        buggy = whole(options.bin, subject, args, budget)
        fixed = whole(options.bin, subject, args + ["--fixed"], budget)
        calm = whole(options.bin, subject, args, settings)

        def cell(figures):
            classes, bugs, complete, seconds = figures
            return f"{classes:,}{'' if complete else ' (incomplete)'}, {bugs}, {seconds:.1f} s"

        print(f"| {name} | `{' '.join(faults)}`{' with `' + ' '.join(settings) + '`' if settings else ''} | {systematic} | {sampled['random']} | {sampled['pct']} "
              f"| {cell(buggy)} | {cell(fixed)} | {calm[1]} ({calm[0]:,} classes) |", flush=True)


if __name__ == "__main__":
    main()
