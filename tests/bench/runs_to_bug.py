#!/usr/bin/env python3
"""Time and runs to the first bug: each strategy over seeds, one worker, within a time budget.

For each case (a subject, its arguments and the bug sought, matched in the bug's status or
detail) and each strategy (systematic: the default reduction, whose runs no seed changes, run once;
pct, random, pos and portfolio: seeds 1..N; default: no --strategy, seeds 1..N), runs `exocheck
explore --json --workers 1 [--strategy S] [--seed N] --time-limit SECONDS`, which stops at the first distinct bug. When that is another bug,
it runs again with --max-bugs 2, 3, ... (up to 6) until the bug sought is among them, or no more
come. The bug's run is summary.json's found_at_run (with one worker, runs end in their order), its
time the wall time of the process that stopped at it. Prints one markdown table: the seeds that
found it within the budget, then the median and most runs and seconds over those.

  tests/bench/runs_to_bug.py [--bin build/bin] [--seeds 20] [--seconds 10] [--only le-erlang]
                             [--strategies systematic,pct,random,pos,default]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# (name, subject, args, text in the bug's status or detail, extra options)
CASES = [
    ("le-erlang two leaders", "le-erlang", ["--nodes", "3", "--failures", "3"], "two leaders", []),
    ("le-erlang --fifo two leaders", "le-erlang", ["--nodes", "3", "--failures", "3", "--fifo"], "two leaders", []),
    ("le-erlang deadlock", "le-erlang", ["--nodes", "3", "--failures", "3"], "RUN_DEADLOCK", []),
    ("clientserver atomicity", "clientserver", [], "atomicity violation", []),
    ("diningphil deadlock", "diningphil", [], "RUN_DEADLOCK", []),
    ("futures-deadlock", "futures-deadlock", [], "RUN_DEADLOCK", []),
    ("serverreal inventory", "serverreal", [], "RUN_ASSERTION_FAILED", []),
    ("minesweeper deadlock", "minesweeper", [], "RUN_DEADLOCK", []),
    ("election", "election", [], "RUN_ASSERTION_FAILED", []),
    ("gcl-determinism", "gcl-determinism", [], "RUN_NONDETERMINISTIC", ["--check", "determinism"]),
    ("futures-datarace", "futures-datarace", [], "RUN_NONDETERMINISTIC", ["--check", "determinism"]),
    ("retry timeout", "retry", [], "RUN_ASSERTION_FAILED", []),
    ("primary-backup timer", "primary-backup", [], "RUN_ASSERTION_FAILED", []),
    ("primary-backup loss", "primary-backup", [], "RUN_ASSERTION_FAILED",
     ["--timers", "quiescent", "--lose", "1", "--lossy-types", "ForwardAck,WriteAck"]),
    ("two-phase-commit crash", "two-phase-commit", [], "RUN_ASSERTION_FAILED",
     ["--crash", "1", "--crash-types", "Coordinator"]),
    ("session-cache crash", "session-cache", [], "RUN_CRASH", []),
    ("failure-detector safety", "failure-detector", [], "PingBudget", []),
    ("failure-detector liveness", "failure-detector", ["--rounds", "2"], "RUN_LIVENESS", []),
    ("replicated-storage liveness", "replicated-storage", [], "RUN_LIVENESS", []),
    ("replicated-storage --forever", "replicated-storage", ["--forever"], "RUN_LIVENESS",
     ["--liveness-bound", "20", "--step-limit", "300"]),
    ("coffee-machine reboot", "coffee-machine", [], "MachineSafety", ["--crash", "1", "--crash-types", "CoffeeMachine"]),
    ("caf-bank", "caf-bank", [], "RUN_ASSERTION_FAILED", []),
    ("caf-batcher timer", "caf-batcher", [], "RUN_ASSERTION_FAILED", []),
    ("caf-philosophers deadlock", "caf-philosophers", [], "RUN_DEADLOCK", []),
    ("caf-retry timer", "caf-retry", [], "RUN_ASSERTION_FAILED", []),
    ("caf-stream", "caf-stream", [], "RUN_ASSERTION_FAILED", []),
]
MOST_BUGS = 6


def first_hit(bin_dir, subject, args, wanted, options, seconds):
    """(found_at_run, wall seconds) of the bug sought, or None."""
    for most in range(1, MOST_BUGS + 1):
        extra = [] if most == 1 else ["--max-bugs", str(most)]
        hit, bugs, wall = explore(bin_dir, subject, args, wanted, options + extra, seconds)
        if hit is not None:
            return hit, wall
        if bugs < most:
            return None
    return None


def explore(bin_dir, subject, args, wanted, options, seconds):
    with tempfile.TemporaryDirectory() as out:
        command = [os.path.join(bin_dir, "exocheck"), "explore", "--json", "--workers", "1", "--time-limit",
                   str(seconds), "--out", os.path.join(out, "o")] + options + [
                       "--", os.path.join(bin_dir, subject)] + args
        start = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.monotonic() - start
        if done.returncode not in (0, 1, 3):
            sys.exit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr}")
        summary = json.loads(done.stdout)
    hits = [bug["found_at_run"] for bug in summary["bugs"]
            if wanted in bug["status"] or wanted in bug["detail"]]
    return (min(hits) if hits else None), len(summary["bugs"]), wall


def describe(hits, tries, seconds):
    found = [h for h in hits if h is not None]
    if not found:
        return f"0/{tries} within {seconds} s", "", "", "", ""
    runs = sorted(h[0] for h in found)
    walls = sorted(h[1] for h in found)
    return (f"{len(found)}/{tries}", f"{statistics.median(runs):,.0f}", f"{runs[-1]:,}",
            f"{statistics.median(walls):.2f}", f"{walls[-1]:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0, help="the time budget of each exploration")
    parser.add_argument("--only", default="", help="only the cases whose name contains this")
    parser.add_argument("--strategies", default="systematic,pct,random,pos,default",
                        help="'default': explore's own, no --strategy given")
    options = parser.parse_args()
    print("| bug | strategy | found (seeds) | median runs | most runs | median s | most s |")
    print("|---|---|---|---|---|---|---|")
    for name, subject, args, wanted, extra in CASES:
        if options.only not in name:
            continue
        for strategy in options.strategies.split(","):
            seeds = [None] if strategy == "systematic" else range(1, options.seeds + 1)
            hits = []
            for seed in seeds:
                chosen = ([] if strategy == "default" else ["--strategy", strategy]) + (
                    [] if seed is None else ["--seed", str(seed)])
                hits.append(first_hit(options.bin, subject, args, wanted, extra + chosen, options.seconds))
            found, median_runs, most_runs, median_s, most_s = describe(hits, len(hits), options.seconds)
            print(f"| {name} | {strategy} | {found} | {median_runs} | {most_runs} | {median_s} | {most_s} |",
                  flush=True)


if __name__ == "__main__":
    main()
