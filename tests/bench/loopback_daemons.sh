# Sourced by the benchmark scripts that go through the daemons: starts a coordinator on
# 127.0.0.1:PORT and one agent with SLOTS slots, logging into a temporary directory ($work), and
# stops both and removes it when the script exits. Sets $coordinator, $agent (their pids) and $work.
#   usage: start_loopback_daemons BUILD_DIR PORT SLOTS
# shellcheck shell=bash
start_loopback_daemons() {
  local build=$1 port=$2 slots=$3
  work=$(mktemp -d)
  trap 'kill "${agent:-}" "${coordinator:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
  "$build/bin/exocheck-coordinator" --listen "127.0.0.1:$port" >"$work/coordinator.log" 2>&1 &
  coordinator=$!
  sleep 0.5
  "$build/bin/exocheck-agent" --coordinator "127.0.0.1:$port" --slots "$slots" --subjects-dir "$build/bin" >"$work/agent.log" 2>&1 &
  agent=$!
  sleep 0.5
}

# The number in a line '"NAME": NUMBER' of --json output on stdin.
field() { sed -n "s/^ *\"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" | head -n 1; }
