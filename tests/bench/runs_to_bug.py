#!/usr/bin/env python3
"""Runs to the first bug: PCT and random walks over 20 seeds each, against depth-first search.

For each case (a subject, its arguments and the bug sought, matched in the bug's detail), runs
`exocheck explore --strategy pct|random --seed S --workers 1 --runs BUDGET` (with --keep-going when
another bug comes first) for every seed and reads the number of the run that first hit the bug (summary.json's found_at_run: with one
worker, runs end in their order). DFS is `--reduction transdpor` (sleep sets, FIFO, one worker)
with --max-paths BUDGET: the path that first hit it. Prints one markdown table.

  tests/bench/runs_to_bug.py [--bin build/bin] [--seeds 20] [--only le-erlang] [--dfs-budget N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# (name, subject, args, text in the bug's detail or status, runs per seed, extra options)
CASES = [
    ("le-erlang two leaders", "le-erlang", ["--nodes", "3", "--failures", "3"], "two leaders", 20000, []),
    ("le-erlang --fifo two leaders", "le-erlang", ["--nodes", "3", "--failures", "3", "--fifo"], "two leaders", 20000,
     []),
    ("le-erlang deadlock", "le-erlang", ["--nodes", "3", "--failures", "3"], "RUN_DEADLOCK", 5000, []),
    ("clientserver atomicity", "clientserver", [], "atomicity violation", 5000, []),
    ("diningphil deadlock", "diningphil", [], "RUN_DEADLOCK", 5000, []),
    ("futures-deadlock", "futures-deadlock", [], "RUN_DEADLOCK", 5000, []),
    ("serverreal inventory", "serverreal", [], "RUN_ASSERTION_FAILED", 5000, []),
    ("minesweeper deadlock", "minesweeper", [], "RUN_DEADLOCK", 5000, []),
    ("gcl-determinism", "gcl-determinism", [], "RUN_NONDETERMINISTIC", 5000, ["--check", "determinism"]),
    ("futures-datarace", "futures-datarace", [], "RUN_NONDETERMINISTIC", 5000, ["--check", "determinism"]),
]


def sampled_first_hit(bin_dir, subject, args, wanted, options, budget):
    """first_hit() for seeded runs, with budgets growing fourfold up to `budget`: run i is the same
    schedule whatever the budget, so a small one that hits gives the same number a large one would."""
    runs = 250
    while True:
        runs = min(runs, budget)
        hit, _ = first_hit(bin_dir, subject, args, wanted, options + ["--runs", str(runs)])
        if hit is not None or runs == budget:
            return hit
        runs *= 4


def first_hit(bin_dir, subject, args, wanted, options):
    """The found_at_run of the first bug whose status or detail contains `wanted`, or None. Stops at
    the first bug, and goes on past others (--keep-going, which keeps every bug's trace in memory)
    only when that one is not the bug sought."""
    hit, paths, bugs = explore(bin_dir, subject, args, wanted, options)
    if hit is not None or bugs == 0:
        return hit, paths
    hit, paths, _ = explore(bin_dir, subject, args, wanted, options + ["--keep-going"])
    return hit, paths


def explore(bin_dir, subject, args, wanted, options):
    with tempfile.TemporaryDirectory() as out:
        command = [os.path.join(bin_dir, "exocheck"), "explore", "--json", "--workers", "1",
                   "--out", os.path.join(out, "o")] + options + ["--", os.path.join(bin_dir, subject)] + args
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode not in (0, 1, 3):
            sys.exit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr}")
        summary = json.loads(done.stdout)
    hits = [bug["found_at_run"] for bug in summary["bugs"]
            if wanted in bug["status"] or wanted in bug["detail"]]
    return (min(hits) if hits else None), summary["stats"]["paths"], len(summary["bugs"])


def describe(hits, budget, seeds):
    found = sorted(h for h in hits if h is not None)
    if not found:
        return f"0/{seeds} within {budget:,}", "", "", ""
    return (f"{len(found)}/{seeds}", f"{found[0]:,}", f"{statistics.median(found):,.0f}", f"{found[-1]:,}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--only", default="", help="only the cases whose name contains this")
    parser.add_argument("--dfs-budget", type=int, default=200000, help="most paths for DFS")
    options = parser.parse_args()
    print("| bug | strategy | found (seeds) | fewest runs | median | most | wall s |")
    print("|---|---|---|---|---|---|---|")
    for name, subject, args, wanted, budget, extra in CASES:
        if options.only not in name:
            continue
        for strategy in ("pct", "random"):
            start = time.monotonic()
            hits = [sampled_first_hit(options.bin, subject, args, wanted,
                                      extra + ["--strategy", strategy, "--seed", str(seed)], budget)
                    for seed in range(1, options.seeds + 1)]
            found, fewest, median, most = describe(hits, budget, options.seeds)
            print(f"| {name} | {strategy} | {found} | {fewest} | {median} | {most} | {time.monotonic() - start:.1f} |",
                  flush=True)
        start = time.monotonic()
        hit, paths = first_hit(options.bin, subject, args, wanted, extra + ["--max-paths", str(options.dfs_budget)])
        found = f"path {hit:,}" if hit is not None else f"not within {paths:,} paths"
        print(f"| {name} | DFS (transdpor) | {found} | | | | {time.monotonic() - start:.1f} |", flush=True)


if __name__ == "__main__":
    main()
