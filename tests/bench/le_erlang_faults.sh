#!/usr/bin/env bash
# usage: tests/bench/le_erlang_faults.sh [BUILD_DIR (default build)] [DFS_SECONDS (default 300; 0: no DFS)] [SEEDS (default 20)] [RUNS (default 2000)]
#
# le-erlang's two-leader bug (3 nodes) found with its own FailureInjector (--failures 3) and with the
# explorer's built-in faults (--builtin-faults, `explore --crash 1 --crash-types Node`: a node may
# crash after any of its steps, or with --crash-leaders only once elected), unordered and in FIFO
# order (the injector's own --fifo links, or the explorer's --delivery fifo). For each variant, the
# execution that first hits a bug of any kind, and the one that first hits "two leaders":
#   - DFS: optimal DPOR (the default reduction), one worker, at most DFS_SECONDS: the execution
#     (found_at_run: paths and sleep-blocked executions, in the order they ended) and the paths at
#     the first bug, and the classes explored in DFS_SECONDS (--keep-going); "-": none in that time.
#     When the first bug is not two leaders, the two-leaders figure is "<= N": --keep-going keeps
#     each distinct bug's shortest run, whose execution N may come after the first hit;
#   - --strategy random and --strategy pct, --runs RUNS, seeds 1..SEEDS, one worker: found (seeds
#     that hit it within RUNS) and min / median / max run. The first bug is where the exploration
#     stops; when that is not two leaders, the first run with two leaders is searched by bisection
#     on --runs with --keep-going (run i is the same schedule whatever --runs is).
# Prints one markdown table. The runs are exact (one worker, seeded) and so are DFS's executions; the
# DFS figures cut by the time limit depend on the machine's speed.
set -euo pipefail
build=${1:-build}
dfs_seconds=${2:-300}
seeds=${3:-20}
runs=${4:-2000}
bin="$build/bin"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# exocheck explore, one worker, JSON summary on stdout: explore options, then -- and the subject's
# arguments. A run gets 60 s, not 10, so that a loaded machine does not report hangs.
explore() {
  "$bin/exocheck" explore --json --workers 1 --run-timeout 60 --out "$out/o" "$@" 2>/dev/null || true
}

# From a summary: "<first bug's run> <its kind> <executions> <paths> <classes>"; "- -" for no bug. A
# kind is the status (DEADLOCK, HANG, ...), or TWO_LEADERS.
first_bug() {
  jq -r '(.bugs | min_by(.found_at_run)) as $b
    | [($b.found_at_run // "-"),
       (if $b == null then "-" elif ($b.detail | contains("two leaders")) then "TWO_LEADERS"
        else ($b.status | ltrimstr("RUN_")) end),
       (.stats.paths + .stats.sleep_blocked), .stats.paths, .stats.classes] | map(tostring) | join(" ")'
}

# From a --keep-going summary: the smallest found_at_run among two-leaders bugs, or "-".
two_leaders() {
  jq -r '[.bugs[] | select(.detail | contains("two leaders")) | .found_at_run] | min // "-"'
}

# found/seeds, then min / median / max of the numbers given (one per seed; "-" for not found).
spread() {
  python3 -c '
import statistics, sys
seeds, values = int(sys.argv[1]), [int(v) for v in sys.argv[2:] if v != "-"]
if not values:
    print(f"0/{seeds}")
else:
    values.sort()
    print(f"{len(values)}/{seeds}: {values[0]} / {statistics.median(values):g} / {values[-1]}")
' "$seeds" "$@"
}

# The first run of `strategy` and `seed` with two leaders, after run `after` (a first bug of
# another kind), or "-": bisection on --runs with --keep-going. Then the explore options and the
# subject's arguments.
first_two_leaders_after() {
  local strategy=$1 seed=$2 after=$3 lo hi mid hit
  shift 3
  hit=$(explore --strategy "$strategy" --seed "$seed" --runs "$runs" --keep-going "$@" | two_leaders)
  if [[ $hit == - ]]; then
    echo -
    return
  fi
  lo=$after hi=$runs  # none within lo runs, some within hi
  while ((hi - lo > 1)); do
    mid=$(((lo + hi) / 2))
    hit=$(explore --strategy "$strategy" --seed "$seed" --runs "$mid" --keep-going "$@" | two_leaders)
    if [[ $hit == - ]]; then lo=$mid; else hi=$mid; fi
  done
  echo "$hi"
}

row() {  # label, explore options (one word list), subject arguments (one word list)
  local label=$1 options=$2 args=$3 cells="- | - | -" start seconds first kind executions paths classes two json
  if ((dfs_seconds > 0)); then
    start=$SECONDS
    # shellcheck disable=SC2086  # word lists
    read -r first kind executions paths classes < <(explore --strategy systematic --time-limit "$dfs_seconds" $options -- \
      "$bin/le-erlang" $args | first_bug)
    seconds=$((SECONDS - start))
    if [[ $first == - ]]; then
      cells="- | - | $classes in ${seconds} s ($executions executions)"
    else
      # shellcheck disable=SC2086
      json=$(explore --strategy systematic --time-limit "$dfs_seconds" --keep-going $options -- "$bin/le-erlang" $args)
      read -r _ _ executions _ classes < <(first_bug <<<"$json")
      two="$first"
      if [[ $kind != TWO_LEADERS ]]; then
        two=$(two_leaders <<<"$json")
        [[ $two == - ]] || two="<= $two"
      fi
      cells="$first ($kind, $paths paths, ${seconds} s) | $two | $classes in $dfs_seconds s ($executions executions)"
    fi
  fi
  for strategy in random pct; do
    local any=() twos=()
    for seed in $(seq 1 "$seeds"); do
      # shellcheck disable=SC2086
      read -r first kind _ < <(explore --strategy "$strategy" --seed "$seed" --runs "$runs" $options -- \
        "$bin/le-erlang" $args | first_bug)
      any+=("$first")
      # shellcheck disable=SC2086
      case $kind in
        TWO_LEADERS) twos+=("$first") ;;
        -) twos+=(-) ;;
        *) twos+=("$(first_two_leaders_after "$strategy" "$seed" "$first" $options -- "$bin/le-erlang" $args)") ;;
      esac
    done
    cells+=" | $(spread "${any[@]}") | $(spread "${twos[@]}")"
  done
  echo "| $label | $cells |"
}

echo "le-erlang --nodes 3: the execution that first hits a bug, and two leaders (DFS: optimal DPOR, one worker," \
  "at most $dfs_seconds s; random and pct: $runs runs, seeds 1..$seeds: found, min / median / max run)"
echo
echo "| variant | DFS first bug | DFS two leaders | DFS classes | random first bug | random two leaders | pct first bug | pct two leaders |"
echo "|---|---|---|---|---|---|---|---|"
crash="--crash 1 --crash-types Node"
row "injector --failures 3, unordered" "" "--nodes 3 --failures 3"
row "injector --failures 3, --fifo" "" "--nodes 3 --failures 3 --fifo"
row "injector --failures 3, --delivery fifo" "--delivery fifo" "--nodes 3 --failures 3"
row "built-in, any step, unordered" "$crash" "--builtin-faults --nodes 3"
row "built-in, any step, --delivery fifo" "$crash --delivery fifo" "--builtin-faults --nodes 3"
row "built-in --crash-leaders, unordered" "$crash" "--builtin-faults --crash-leaders --nodes 3"
row "built-in --crash-leaders, --delivery fifo" "$crash --delivery fifo" "--builtin-faults --crash-leaders --nodes 3"
