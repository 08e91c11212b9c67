#!/usr/bin/env python3
"""One markdown table cell from `exocheck explore --json` on stdin: the figures named as arguments
(executions = paths + sleep-blocked, blocked, classes, bugs, time), joined by " / ", and
" (cut at the time limit)" when the exploration did not complete. Used by the *_table.sh scripts."""
import json
import sys

FIGURES = {
    "executions": lambda s: f'{s["paths"] + s["sleep_blocked"]:,}',
    "blocked": lambda s: f'{s["sleep_blocked"]:,}',
    "classes": lambda s: f'{s["classes"]:,}',
    "bugs": lambda s: f'{s["bugs"]:,}',
    "time": lambda s: f'{s["wall_seconds"]:.2f} s',
}

summary = json.load(sys.stdin)
cell = " / ".join(FIGURES[name](summary["stats"]) for name in sys.argv[1:])
print(cell + ("" if summary["complete"] else " (cut at the time limit)"), end="")
