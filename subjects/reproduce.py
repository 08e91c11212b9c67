#!/usr/bin/env python3
"""Reproduces the papers' tables with exocheck and writes them as markdown, ours beside theirs.

Every cell is one `exocheck explore --json` run of a subject binary with a time limit; the table
shows paths, transitions, classes, redundancy (paths per class), wall time and peak memory of the
explore process (its subjects included), and the paper's figures beside ours. A cell that hit its
limit says so. Run from the repository root after building:

    python3 subjects/reproduce.py --build build --into subjects/README.md

(--into replaces what lies between the markers "<!-- reproduction: begin -->" and "<!-- reproduction: end -->" in that file; --out writes
a file of its own; neither prints the table to stdout.)

The papers: T = TransDPOR (Tasharofi et al., FORTE 2012), Tables 1 and 2; H = ordering
heuristics (Lauterburg et al., FASE 2010), Table 1 (persistent-set DPOR, the five heuristics T
does not show); F = actors and futures (Section 6, Table 1).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

# The papers' programs, as our subjects with the papers' parameters.
PROGRAMS = {
    "registry": ["registry"],
    "fib5": ["fib", "--n", "5"],
    "quicksort6": ["quicksort", "--n", "6"],
    "pi5": ["pi", "--workers", "5"],
    "pipesort4": ["pipesort", "--n", "4"],
    "chameneos2": ["chameneos", "--creatures", "2", "--meetings", "2"],
    "leader4": ["leader", "--n", "4"],
    "shortpath4": ["shortpath", "--nodes", "4"],
    "shortpath5": ["shortpath", "--nodes", "5"],
    "regsim": ["regsim"],
    "regsim-2-level": ["regsim-2-level"],
    "diningphil": ["diningphil", "--fixed"],
    "diningphil (deadlock)": ["diningphil"],
    "minesweeper (deadlock)": ["minesweeper"],
    "le-erlang3-failure (safety)": ["le-erlang", "--nodes", "3", "--failures", "2"],
    "le-erlang4 (no leader)": ["le-erlang", "--nodes", "4", "--no-recovery"],
    "dataproc": ["futures-dataproc"],
    "deadlock": ["futures-deadlock"],
    "datarace": ["futures-datarace"],
}

# T Table 1 (no sleep sets): (DPOR paths, DPOR transitions, TransDPOR paths, TransDPOR transitions).
T_TABLE_1 = {
    ("fib5", "fifo"): (40, 203, 40, 203),
    ("fib5", "eca"): (327, 1650, 203, 1051),
    ("fib5", "lca"): (16, 91, 16, 91),
    ("quicksort6", "fifo"): (368, 1586, 368, 1586),
    ("quicksort6", "eca"): (3822, 16766, 1519, 6992),
    ("quicksort6", "lca"): (32, 156, 32, 156),
    ("pi5", "fifo"): (120, 931, 120, 931),
    ("pi5", "eca"): (120, 931, 120, 931),
    ("pi5", "lca"): (19845, 156070, 312, 2452),
    ("pipesort4", "fifo"): (1791, 8562, 755, 3541),
    ("pipesort4", "eca"): (288, 1293, 288, 1293),
    ("pipesort4", "lca"): (5970, 32385, 2221, 11999),
    ("chameneos2", "fifo"): (3240, 19459, 600, 3673),
    ("chameneos2", "eca"): (19683, 118197, 1728, 10554),
    ("chameneos2", "lca"): (216, 1231, 216, 1231),
    ("leader4", "fifo"): (18098, 107780, 14984, 86889),
    ("leader4", "eca"): (11957, 68373, 11909, 68125),
    ("leader4", "lca"): (39238, 236330, 27287, 163030),
    ("shortpath4", "fifo"): (238, 910, 238, 910),
    ("shortpath4", "eca"): (392, 1464, 392, 1464),
    ("shortpath4", "lca"): (640, 2158, 370, 1337),
    ("shortpath5", "fifo"): (528, 2443, 528, 2443),
    ("shortpath5", "eca"): (2658, 8476, 1170, 3737),
    ("shortpath5", "lca"): (1865, 7076, 1272, 4704),
    ("regsim", "fifo"): (211750, 590835, 1320, 3607),
    ("regsim", "eca"): (208034, 591454, 1950, 5434),
    ("regsim", "lca"): (720, 1962, 720, 1962),
}

# T Table 2 (sleep sets), same layout.
T_TABLE_2 = {
    ("fib5", "fifo"): (16, 101, 16, 101),
    ("fib5", "eca"): (16, 139, 16, 139),
    ("fib5", "lca"): (16, 91, 16, 91),
    ("quicksort6", "fifo"): (32, 179, 32, 179),
    ("quicksort6", "eca"): (32, 272, 32, 272),
    ("quicksort6", "lca"): (32, 156, 32, 156),
    ("pi5", "fifo"): (120, 931, 120, 931),
    ("pi5", "eca"): (120, 931, 120, 931),
    ("pi5", "lca"): (120, 1236, 120, 990),
    ("pipesort4", "fifo"): (288, 1448, 288, 1422),
    ("pipesort4", "eca"): (288, 1293, 288, 1293),
    ("pipesort4", "lca"): (288, 1944, 288, 1935),
    ("chameneos2", "fifo"): (216, 1681, 216, 1453),
    ("chameneos2", "eca"): (216, 1826, 216, 1530),
    ("chameneos2", "lca"): (216, 1231, 216, 1231),
    ("leader4", "fifo"): (492, 3125, 492, 3097),
    ("leader4", "eca"): (492, 3267, 492, 3218),
    ("leader4", "lca"): (492, 3311, 492, 3311),
    ("shortpath4", "fifo"): (126, 473, 126, 473),
    ("shortpath4", "eca"): (126, 489, 126, 489),
    ("shortpath4", "lca"): (126, 522, 126, 502),
    ("shortpath5", "fifo"): (296, 1408, 296, 1408),
    ("shortpath5", "eca"): (296, 1031, 296, 997),
    ("shortpath5", "lca"): (296, 1228, 296, 1218),
    ("regsim", "fifo"): (720, 3453, 720, 2019),
    ("regsim", "eca"): (720, 4054, 720, 2152),
    ("regsim", "lca"): (720, 1962, 720, 1962),
    ("regsim-2-level", "fifo"): (1296, 8636, 1296, 5537),
    ("regsim-2-level", "eca"): (1296, 14990, 1296, 7486),
    ("regsim-2-level", "lca"): (1296, 6481, 1296, 6295),
    ("diningphil", "fifo"): (31, 1375, 31, 1375),
    ("diningphil", "eca"): (31, 2082, 31, 1662),
    ("diningphil", "lca"): (31, 1333, 29, 1147),
}

# T Table 2, buggy programs: sleep sets, exploration stops at the first bug.
T_TABLE_2_BUGGY = {
    ("diningphil (deadlock)", "fifo"): (1, 15, 1, 15),
    ("diningphil (deadlock)", "eca"): (16, 915, 16, 767),
    ("diningphil (deadlock)", "lca"): (1, 15, 1, 15),
    ("minesweeper (deadlock)", "fifo"): (1, 29, 1, 29),
    ("minesweeper (deadlock)", "eca"): (2710, 15577, 2710, 15381),
    ("minesweeper (deadlock)", "lca"): (6993, 69350, 6993, 55430),
    ("le-erlang3-failure (safety)", "fifo"): (457, 1976, 452, 1944),
    ("le-erlang3-failure (safety)", "eca"): (30, 174, 30, 174),
    ("le-erlang3-failure (safety)", "lca"): (233738, 759109, 93640, 296229),
    ("le-erlang4 (no leader)", "fifo"): (2209, 11006, 2191, 10146),
    ("le-erlang4 (no leader)", "eca"): (1, 27, 1, 27),
    ("le-erlang4 (no leader)", "lca"): (198713, 698759, 88505, 277440),
}

# H Table 1, persistent-set DPOR (no sleep sets): paths for the heuristics T does not show.
H_HEURISTICS = ["lifo", "ldm", "hdm", "hms", "sgr"]
H_TABLE_1 = {
    "chameneos2": (4899, 3375, 19683, 19683, 19683),
    "pipesort4": (1080, 384, 1480, 307, 288),
    "fib5": (81, 261, 263, 66, 327),
    "quicksort6": (243, 2502, 2804, 183, 3822),
    "leader4": (125, 133, 88, 126, 101),
    "shortpath4": (750, 492, 419, 453, 392),
    "pi5": (19845, 120, 3424, 19845, 567),
    "shortpath5": (2638, 1178, 2756, 783, 3349),
}

# F Table 1 (all paths explored, bugs included): traces and transitions.
F_TABLE_1 = {"dataproc": (459, 1852), "deadlock": (108, 390), "datarace": (27, 130)}

# One line per program on the differences we can explain (printed under the tables).
PROGRAM_NOTES = {
    "registry": "Matches T Fig. 1 exactly: DPOR 24 paths, TransDPOR 10, 6 classes.",
    "pi5": "Matches T and H exactly, but for the TransDPOR LCA cells, where T used a variant that misses "
           "classes (see those rows), and H's HMS and SGR (see the note on history heuristics).",
    "fib5": "Paths match T and H (but HMS, see the history heuristics); transitions are 1 fewer per exploration "
            "than T's: T also counts the initial transition once.",
    "quicksort6": "Our input array gives 16 classes, T's 32 (with sleep sets, where paths = classes): T's array "
                  "is not published; every count follows from the class count.",
    "chameneos2": "T does not give the parameters of \"chameneos 2\"; ours (2 creatures, 2 meetings) has 24 "
                  "classes, T's 216.",
    "shortpath4": "The papers' graphs are not published; our 4-node graph has 76 classes, T's 126.",
    "shortpath5": "Our 5-node graph (subjects/shortpath/README.md) has over 160,000 classes, T's 296: the "
                  "cells stop at the limit.",
    "diningphil": "T does not give the philosopher count or meals; ours (3 philosophers, one meal each) has 6 "
                  "classes, T's 31. The deadlocked variant is found on the first path with FIFO and LCA, as in T.",
    "diningphil (deadlock)": "Found on the first path with FIFO and LCA, as in T; ECA needs 6 paths, T's 16 "
                             "(T's table has more classes, see diningphil).",
    "pipesort4": "Classes match T's 288 (= 4!·3!·2!·1!), and so do the paths with sleep sets; without them our "
                 "port's messages (the sorted list passed down, held by a guard) differ from dCUTE's, and so do "
                 "DPOR's redundant paths.",
    "leader4": "Our port holds a later phase's messages back with guards, so only the relays' forwarding order "
               "varies: 5 classes against T's 492. Its guards have views (actor.hpp), which the hook tests on a "
               "node's earlier states: without sleep sets the reductions explore 15 to 37 paths (with plain "
               "guards every cell stopped at the limit, after some 25,000).",
    "regsim": "T gives no code; our design (3 clients, a registrar, a server) has 540 classes, T's 720. T's "
              "pattern holds: LCA needs one path per class, TransDPOR beats DPOR under FIFO and ECA.",
    "regsim-2-level": "Our design (3 clients, 2 local registrars, a top registrar) has 1,080 classes, T's 1,296.",
    "minesweeper (deadlock)": "T's board is not published; ours (3x3, one mine) deadlocks on the first path with "
                              "FIFO, as in T.",
    "le-erlang3-failure (safety)": "Our port of leader3.erl (3 nodes, the first 2 leaders crash and restart) has "
                                   "not shown the two-leader path within the limit; with 3 crashes and FIFO "
                                   "channels depth first shows it after 142,688 paths, PCT after 62 runs at the "
                                   "median of 20 seeds (subjects/le-erlang/README.md). T's port is not published.",
    "le-erlang4 (no leader)": "The 2-against-2 split of 4 nodes without recovery (T's new bug) ends in a deadlock "
                              "on WhoIsLeader: LCA finds it on the first path, FIFO and ECA not within the limit "
                              "(T's port, unpublished, differs).",
    "dataproc": "F's dataproc has 459 traces under Basset's translation; ours (3 futures, one lock, a store actor) "
                "has 6 classes (3!).",
    "deadlock": "F counts Basset's traces of its own translation of futures and synchronized methods into "
                "actors (more messages); ours uses the API's Future and Lock: 3 classes, one deadlocked.",
    "datarace": "As for deadlock; ours has 2 classes (balance 5 and 8), found with --check determinism.",
    "history": "HMS and SGR rank actors from the runs explored before; H does not pin down that history or "
               "the tie-breaks, and with 2 workers runs finish in another order, so these counts differ "
               "(every class is still reached).",
}

# One line per cell whose difference has a cause of its own.
NOTES = {
    ("pi5", "lca", "transdpor", "T1"): "T's 312 comes from a TransDPOR variant that misses classes; the sound Fig. 2 gives 945 (below, \"Differences explained\": pi5)",
    ("pi5", "lca", "transdpor", "T2"): "T's 990 transitions come from the unsound variant; the sound Fig. 2 gives 1,015",
    ("fib5", "eca", "transdpor", "T1"): "T's 203 comes from the unsound TransDPOR variant; the sound Fig. 2 gives 327 (= DPOR)",
}


@dataclass
class Cell:
    table: str  # "T1", "T2", "T2-buggy", "H1", "F1"
    program: str
    reduction: str
    heuristic: str
    sleep_sets: bool
    paper_paths: object = None
    paper_transitions: object = None
    keep_going: bool = False
    check: str = ""
    result: dict = field(default_factory=dict)


def grid(programs):
    cells = []
    for table, figures, sleep in (("T1", T_TABLE_1, False), ("T2", T_TABLE_2, True), ("T2-buggy", T_TABLE_2_BUGGY, True)):
        for (program, heuristic), (dp, dt, tp, tt) in figures.items():
            if program not in programs:
                continue
            cells.append(Cell(table, program, "dpor", heuristic, sleep, dp, dt))
            cells.append(Cell(table, program, "transdpor", heuristic, sleep, tp, tt))
    for program, paths in H_TABLE_1.items():
        if program not in programs:
            continue
        for heuristic, figure in zip(H_HEURISTICS, paths):
            cells.append(Cell("H1", program, "dpor", heuristic, False, figure))
    for program, (paths, transitions) in F_TABLE_1.items():
        if program in programs:
            cells.append(Cell("F1", program, "transdpor", "fifo", False, paths, transitions, keep_going=True,
                              check="determinism" if program == "datarace" else ""))
    if "registry" in programs:
        # T Fig. 1: DPOR 24 paths, TransDPOR 10, without sleep sets.
        cells.insert(0, Cell("T-Fig1", "registry", "dpor", "fifo", False, 24))
        cells.insert(1, Cell("T-Fig1", "registry", "transdpor", "fifo", False, 10))
    return cells


def run_cell(cell, args):
    """Runs one exploration; fills cell.result with the figures, the limit flag and peak memory."""
    binary, *subject_args = PROGRAMS[cell.program]
    out_dir = tempfile.mkdtemp(prefix="exocheck-reproduce-")
    command = [os.path.join(args.build, "bin", "exocheck"), "explore", "--json", "--out", os.path.join(out_dir, "out"),
               "--strategy", "systematic", "--reduction", cell.reduction, "--heuristic", cell.heuristic, "--workers", str(args.workers),
               "--time-limit", str(args.limit)]
    if not cell.sleep_sets:
        command.append("--no-sleep-sets")
    if cell.keep_going:
        command.append("--keep-going")
    if cell.check:
        command += ["--check", cell.check]
    command += ["--", os.path.join(args.build, "bin", binary)] + subject_args
    started = time.monotonic()
    with open(os.path.join(out_dir, "stdout"), "w+b") as stdout:
        process = subprocess.Popen(command, stdout=stdout, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        text = stdout.read().decode(errors="replace")
    wall = time.monotonic() - started
    try:
        summary = json.loads(text)
        stats = summary["stats"]
        cell.result = {
            "paths": stats["paths"], "transitions": stats["transitions"], "classes": stats["classes"],
            "redundancy": stats["redundancy"], "bugs": stats["bugs"], "complete": summary["complete"],
            "verdict": summary["verdict"], "wall": stats["wall_seconds"],
            "peak_mb": usage.ru_maxrss / 1024.0,
            "bug_kinds": sorted({bug["status"] for bug in summary["bugs"]}),
        }
    except (ValueError, KeyError) as error:
        cell.result = {"error": f"exit {process.returncode}, no summary ({error})", "wall": wall}
    shutil.rmtree(out_dir, ignore_errors=True)


def number(value):
    return "–" if value is None else f"{value:,}"


def outcome(cell):
    r = cell.result
    if "error" in r:
        return "error: " + r["error"]
    if r["verdict"] == "limit":
        return "**time limit**"
    if r["bugs"]:
        return ", ".join(kind.removeprefix("RUN_").lower() for kind in r["bug_kinds"]) + (
            "" if not r["complete"] else " (all explored)")
    return "complete"


def row(cell):
    r = cell.result
    note = NOTES.get((cell.program, cell.heuristic, cell.reduction, cell.table), "")
    if "error" in r:
        return (f"| {cell.program} | {cell.heuristic.upper()} | {cell.reduction} | – | {number(cell.paper_paths)} | – | "
                f"{number(cell.paper_transitions)} | – | – | {r['wall']:.1f} | – | {outcome(cell)} | {note} |")
    return (f"| {cell.program} | {cell.heuristic.upper()} | {cell.reduction} | {number(r['paths'])} | "
            f"{number(cell.paper_paths)} | {number(r['transitions'])} | {number(cell.paper_transitions)} | "
            f"{number(r['classes'])} | {r['redundancy']:.2f} | {r['wall']:.1f} | {r['peak_mb']:.0f} | {outcome(cell)} | "
            f"{note} |")


TITLES = {
    "T-Fig1": "TransDPOR paper, Fig. 1 (registry; no sleep sets)",
    "T1": "TransDPOR paper, Table 1 (no sleep sets)",
    "T2": "TransDPOR paper, Table 2 (sleep sets)",
    "T2-buggy": "TransDPOR paper, Table 2, buggy programs (sleep sets; stops at the first bug)",
    "H1": "Heuristics paper, Table 1 (persistent-set DPOR, no sleep sets; the five heuristics T does not show)",
    "F1": "Actors-and-futures paper, Table 1 (TransDPOR, every path explored, bugs included)",
}

HEADER = ("| program | heur. | reduction | paths | paper | transitions | paper | classes | redundancy | wall s | "
          "peak MB | outcome | note |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")


def markdown(cells, command, total_seconds, limit):
    lines = [f"Generated by `{command}` in {total_seconds / 60:.1f} minutes "
             f"({os.cpu_count()} cores; each cell limited to {limit:g} s).", ""]
    for table, title in TITLES.items():
        selected = [cell for cell in cells if cell.table == table]
        if not selected:
            continue
        lines += [f"#### {title}", "", HEADER]
        lines += [row(cell) for cell in selected]
        lines.append("")
    programs = list(dict.fromkeys(cell.program for cell in cells))
    notes = [f"- **{program}**: {PROGRAM_NOTES[program]}" for program in programs if program in PROGRAM_NOTES]
    if any(cell.heuristic in ("hms", "sgr") for cell in cells):
        notes.append(f"- **HMS, SGR**: {PROGRAM_NOTES['history']}")
    if notes:
        lines += ["#### Differences explained", ""] + notes + [""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build", help="the build folder (with bin/exocheck and the subjects)")
    parser.add_argument("--out", help="write the markdown here (default: stdout)")
    parser.add_argument("--into", help="replace the text between the reproduction markers of this file")
    parser.add_argument("--workers", type=int, default=2, help="exocheck explore --workers (default 2)")
    parser.add_argument("--limit", type=float, default=20, help="time limit per cell in seconds (default 20)")
    parser.add_argument("--programs", nargs="*", default=list(PROGRAMS), help="the papers' programs to run")
    args = parser.parse_args()
    unknown = [program for program in args.programs if program not in PROGRAMS]
    if unknown:
        parser.error("unknown programs: " + ", ".join(unknown) + "; known: " + ", ".join(PROGRAMS))
    exocheck = os.path.join(args.build, "bin", "exocheck")
    if not os.access(exocheck, os.X_OK):
        parser.error(f"{exocheck} not found: build first (deploy/build.sh)")
    missing = sorted({PROGRAMS[p][0] for p in args.programs} - set(os.listdir(os.path.join(args.build, "bin"))))
    if missing:
        parser.error("subjects not built: " + ", ".join(missing))
    if args.into:
        splice(args.into, None)  # fail now, not after half an hour, when the markers are missing
    cells = grid(set(args.programs))
    started = time.monotonic()
    for index, cell in enumerate(cells, 1):
        run_cell(cell, args)
        r = cell.result
        print(f"[{index}/{len(cells)}] {cell.table} {cell.program} {cell.reduction} {cell.heuristic} "
              f"sleep={'on' if cell.sleep_sets else 'off'}: {r.get('paths', '-')} paths, "
              f"{outcome(cell)}, {r['wall']:.1f} s", file=sys.stderr, flush=True)
    command = "python3 subjects/reproduce.py " + " ".join(sys.argv[1:])
    text = markdown(cells, command.strip(), time.monotonic() - started, args.limit)
    if args.into:
        splice(args.into, text)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text + "\n")
    if not args.into and not args.out:
        print(text)


BEGIN, END = "<!-- reproduction: begin -->", "<!-- reproduction: end -->"


def splice(path, text):
    """Puts `text` between the markers of `path`; with text None, only checks the markers are there."""
    try:
        with open(path) as existing:
            content = existing.read()
    except OSError as error:
        sys.exit(f"reproduce.py: cannot read {path}: {error.strerror}")
    begin, end = content.find(BEGIN), content.find(END)
    if begin < 0 or end < begin:
        sys.exit(f"reproduce.py: {path} has no '{BEGIN}' ... '{END}' markers")
    if text is None:
        return
    with open(path, "w") as out:
        out.write(content[:begin + len(BEGIN)] + "\n" + text + "\n" + content[end:])


if __name__ == "__main__":
    main()
