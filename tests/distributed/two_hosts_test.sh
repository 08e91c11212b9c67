#!/usr/bin/env bash
# Two hosts for real (issue 21): the coordinator and two agents each in a network namespace of
# their own, joined by veth pairs (10.77.1.0/24 between the coordinator and agent 1, 10.77.2.0/24
# between the coordinator and agent 2), explore registry (K=6) through them; the client runs on agent
# 1's host. Every link is mutual TLS (a CA made here signs the coordinator's, the agents' and the
# client's certificates) with a token. The summary must be embedded mode's. Root only: skipped (exit
# 77) otherwise.
#   usage: two_hosts_test.sh BUILD_BIN_DIR
set -euo pipefail
bin=$1
skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "network namespaces need root"
command -v ip >/dev/null || skip "no ip command (iproute2)"
command -v openssl >/dev/null || { echo "FAIL: openssl is not installed (deploy/setup.sh installs it)"; exit 1; }
tag=$$
c=exo-c-$tag a1=exo-a1-$tag a2=exo-a2-$tag
work=$(mktemp -d)
cleanup() {
  for ns in "$c" "$a1" "$a2"; do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
exec 2>/dev/null  # the daemons killed at the end are not news
ip netns add "$c" 2>/dev/null || skip "cannot create network namespaces here"
ip netns add "$a1"
ip netns add "$a2"
for ns in "$c" "$a1" "$a2"; do ip -n "$ns" link set lo up; done
link() {  # NS ADDRESS_ON_C ADDRESS_ON_NS N
  ip link add "ec$4-$tag" type veth peer name "ea$4-$tag"
  ip link set "ec$4-$tag" netns "$c"
  ip link set "ea$4-$tag" netns "$1"
  ip -n "$c" addr add "$2/24" dev "ec$4-$tag"
  ip -n "$1" addr add "$3/24" dev "ea$4-$tag"
  ip -n "$c" link set "ec$4-$tag" up
  ip -n "$1" link set "ea$4-$tag" up
}
link "$a1" 10.77.1.1 10.77.1.2 1
link "$a2" 10.77.2.1 10.77.2.2 2
# The certificates: the coordinator's names both its addresses; agents and client share one.
ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
openssl req -x509 "${ec[@]}" -days 1 -subj /CN=exocheck-ca -keyout "$work/ca.key" -out "$work/ca.pem"
echo "subjectAltName=IP:10.77.1.1,IP:10.77.2.1" >"$work/server.ext"
for who in server client; do
  openssl req "${ec[@]}" -subj "/CN=$who" -keyout "$work/$who.key" -out "$work/$who.csr"
  extra=()
  [ "$who" = server ] && extra=(-extfile "$work/server.ext")
  openssl x509 -req -days 1 -in "$work/$who.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial \
    -out "$work/$who.pem" "${extra[@]}"
done
head -c 24 /dev/urandom | base64 >"$work/token"
secured() {  # WHO: the link flags of the coordinator (server) or of an agent or client (client)
  echo --tls-cert "$work/$1.pem" --tls-key "$work/$1.key" --tls-ca "$work/ca.pem" --token-file "$work/token"
}
# shellcheck disable=SC2046  # the flags are words without spaces
ip netns exec "$c" "$bin/exocheck-coordinator" --listen 0.0.0.0:7900 $(secured server) >"$work/coordinator.log" 2>&1 &
sleep 0.5
# shellcheck disable=SC2046
ip netns exec "$a1" "$bin/exocheck-agent" --coordinator 10.77.1.1:7900 --name host-1 --subjects-dir "$bin" \
  $(secured client) >"$work/agent-1.log" 2>&1 &
# shellcheck disable=SC2046
ip netns exec "$a2" "$bin/exocheck-agent" --coordinator 10.77.2.1:7900 --name host-2 --subjects-dir "$bin" \
  $(secured client) >"$work/agent-2.log" 2>&1 &
for _ in $(seq 1 100); do
  [ "$(grep -c ' attached with ' "$work/coordinator.log" || true)" -ge 2 ] && break
  sleep 0.1
done
grep -q "at ipv4:10.77.2.2" "$work/coordinator.log" || { echo "agent 2 did not attach from its host"; cat "$work"/*.log; exit 1; }
subject=("$bin/registry" --workers 6)
summary() { sed -n 's/^ *"summary": "\(.*\)",\{0,1\}$/\1/p'; }
# Systematic: the summaries name the paths, which a portfolio's sampled runs would make differ.
"$bin/exocheck" explore --strategy systematic --workers 1 --json --out "$work/embedded" -- "${subject[@]}" \
  >"$work/embedded.json"
# shellcheck disable=SC2046
ip netns exec "$a1" "$bin/exocheck" explore --strategy systematic --coordinator 10.77.1.1:7900 $(secured client) --json \
  --out "$work/remote" -- "${subject[@]}" >"$work/remote.json" 2>/dev/null
grep -q "port 7900; TLS, client certificates required, token required" "$work/coordinator.log" ||
  { echo "the coordinator did not say it requires TLS client certificates and a token"; cat "$work"/*.log; exit 1; }
embedded=$(summary <"$work/embedded.json")
remote=$(summary <"$work/remote.json")
subtrees=$(sed -n 's/^ *"subtrees": \([0-9]*\),\{0,1\}$/\1/p' "$work/remote.json")
echo "embedded: $embedded"
echo "two hosts: $remote ($subtrees subtrees leased)"
[ -n "$embedded" ] && [ "$remote" = "$embedded" ] || { echo "the summaries differ"; cat "$work"/*.log; exit 1; }
[ "${subtrees:-0}" -ge 2 ] || { echo "one agent explored everything: nothing went across hosts both ways"; exit 1; }
