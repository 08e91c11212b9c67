#!/usr/bin/env bash
# The deploy files, checked as far as this machine can run them: the systemd units pass
# `systemd-analyze verify` (with the binaries where this build put them) and name only flags the
# daemons have; the Slurm script passes `bash -n` and explores registry (K=5) under a fake `srun` (two
# "nodes" on this host), plaintext and over mutual TLS; the Kubernetes manifests are checked with a
# YAML parser (check_manifests.py); the Containerfile's runtime packages exist in Debian 12 and
# bring every library the installed binaries need.
# Usage: deploy_files_test.sh REPO_DIR BIN_DIR
set -euo pipefail
repo=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd)
deploy=$repo/deploy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

# Every --flag of an ExecStart (or an argument list) is one the program's --help names.
flags_known() {  # PROGRAM WORDS...
  local program=$1
  shift
  local help
  help=$("$bin/$program" --help)
  for word in "$@"; do
    case $word in
      --*) grep -qe "${word%%=*}" <<<"$help" || fail "$program has no flag ${word%%=*}" ;;
    esac
  done
}

echo "== systemd units"
for unit in exocheck-coordinator exocheck-agent; do
  sed "s|/usr/local/bin/|$bin/|g" "$deploy/systemd/$unit.service" >"$work/$unit.service"
  if command -v systemd-analyze >/dev/null; then
    systemd-analyze verify "$work/$unit.service" >"$work/verify.log" 2>&1 || { cat "$work/verify.log"; fail "$unit.service"; }
    # verify reports some problems without failing: none may be about this unit.
    ! grep -i "$unit.service" "$work/verify.log" || fail "systemd-analyze has something to say about $unit.service"
  else
    echo "systemd-analyze not installed: only the flags are checked"
  fi
  exec_start=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$deploy/systemd/$unit.service" | tr -d '\\' | tr '\n' ' ')
  # shellcheck disable=SC2086  # its words
  flags_known "$unit" ${exec_start#ExecStart=*/$unit}
  for setting in NoNewPrivileges=yes ProtectSystem=strict User=exocheck; do
    grep -qx "$setting" "$deploy/systemd/$unit.service" || fail "$unit.service lacks $setting"
  done
  echo "$unit.service: verified"
done

echo "== Slurm"
bash -n "$deploy/slurm/exocheck.sbatch"
mkdir -p "$work/fake"
# srun: start the task once per node (here, all on this host), as Slurm would, and stop them with it.
cat >"$work/fake/srun" <<'FAKE'
#!/usr/bin/env bash
nodes=1
while [[ $1 == --* ]]; do
  case $1 in --nodes=*) nodes=${1#--nodes=} ;; esac
  shift
done
echo "srun: $nodes tasks of $*" >>"$FAKE_SRUN_LOG"
pids=()
for ((i = 0; i < nodes; ++i)); do "$@" >>"$FAKE_SRUN_LOG" 2>&1 & pids+=($!); done
trap 'kill "${pids[@]}" 2>/dev/null; wait' TERM INT
wait
FAKE
chmod +x "$work/fake/srun"
for mode in plaintext tls; do
  rm -rf "$work/run" && mkdir "$work/run"
  env_tls=()
  if [ "$mode" = tls ]; then
    command -v openssl >/dev/null || fail "openssl is not installed (deploy/setup.sh installs it)"
    tls=$work/tls
    mkdir -p "$tls"
    ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
    openssl req -x509 "${ec[@]}" -days 1 -subj /CN=ca -keyout "$tls/ca.key" -out "$tls/ca.pem" 2>/dev/null
    echo "subjectAltName=IP:127.0.0.1" >"$tls/ext"
    for who in coordinator agent; do
      openssl req "${ec[@]}" -subj "/CN=$who" -keyout "$tls/$who.key" -out "$tls/$who.csr" 2>/dev/null
      openssl x509 -req -days 1 -in "$tls/$who.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
        -out "$tls/$who.pem" -extfile "$tls/ext" 2>/dev/null
    done
    echo "slurm-token" >"$tls/token"
    env_tls=(EXOCHECK_TLS_DIR="$tls" EXOCHECK_TOKEN_FILE="$tls/token")
  fi
  status=0
  (cd "$work/run" && env PATH="$work/fake:$PATH" FAKE_SRUN_LOG="$work/run/srun.log" SLURM_JOB_ID="test-$mode" \
    SLURM_JOB_NUM_NODES=2 EXOCHECK_BIN="$bin" EXOCHECK_COORDINATOR_HOST=127.0.0.1 EXOCHECK_PORT=$((17700 + $$ % 1000)) \
    "${env_tls[@]}" timeout 120 bash "$deploy/slurm/exocheck.sbatch" "$bin/registry" --workers 5 >"$work/run/out.log" 2>&1) ||
    status=$?
  [ "$status" = 0 ] || { cat "$work/run/out.log" "$work/run/srun.log"; fail "the Slurm script ($mode) exited with $status"; }
  grep -q "srun: 2 tasks of $bin/exocheck-agent --coordinator 127.0.0.1:" "$work/run/srun.log" ||
    fail "srun did not start an agent per node: $(cat "$work/run/srun.log")"
  grep -q 'Summary: complete, .* 720 classes, 0 bugs' "$work/run/out.log" || fail "no summary ($mode): $(cat "$work/run/out.log")"
  [ -f "$work/run/exocheck-test-$mode/summary.json" ] || fail "no report folder exocheck-test-$mode"
  [ "$(grep -c ' serving coordinator 127.0.0.1:' "$work/run/srun.log")" = 2 ] || fail "not 2 agents ($mode): $(cat "$work/run/srun.log")"
  if [ "$mode" = tls ]; then
    grep -q "TLS, client certificates required, token required" "$work/run/out.log" || fail "the coordinator was not on TLS"
  fi
  echo "slurm ($mode): registry (5 workers) explored with 2 agents, 720 classes"
done

echo "== Kubernetes"
python=$(command -v /usr/bin/python3 || command -v python3)
"$python" "$repo/tests/deploy/check_manifests.py" "$bin" "$deploy"/kubernetes/*.yaml

echo "== Containerfile"
file=$deploy/container/Containerfile
grep -q '^FROM docker.io/library/debian:12 AS build' "$file" || fail "the build stage is not Debian 12"
grep -q '^FROM docker.io/library/debian:12-slim' "$file" || fail "the image is not Debian 12"
grep -q '^USER exocheck' "$file" || fail "the image runs as root"
# The runtime stage's packages: the second apt-get install's.
runtime=$(awk '/^FROM .*debian:12-slim/{on=1} on' "$file" | sed -n '/apt-get install/,/rm -rf/p' | tr '\\' ' ' |
  grep -oE '\b(lib[a-z0-9.+-]+|ca-certificates)\b' | grep -v '^lib/' | sort -u)
for package in $runtime; do
  apt-cache show "$package" >/dev/null 2>&1 || fail "the Containerfile installs $package, which Debian 12 does not have"
done
# shellcheck disable=SC2086
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
  $runtime 2>/dev/null | grep -oE '^[a-z0-9][a-z0-9.+-]*' | sort -u >"$work/closure"
# The libraries the installed binaries need (this build's own aside), and the packages they are from.
for binary in "$bin/exocheck" "$bin/exocheck-coordinator" "$bin/exocheck-agent" "$bin/../lib/libexocheck_caf.so"; do
  ldd "$binary" | awk '/=> \//{print $3}'
done | sort -u | grep -v "^$bin/\.\./lib/" | xargs -r readlink -f | sort -u >"$work/libraries"
while read -r library; do
  owner=$(dpkg -S "$library" 2>/dev/null || dpkg -S "${library#/usr}" 2>/dev/null) ||
    fail "no Debian package holds $library"
  owner=${owner%%:*}
  grep -qx "$owner" "$work/closure" || fail "the binaries need $library ($owner), which the image does not install"
done <"$work/libraries"
echo "Containerfile: $(wc -w <<<"$runtime") runtime packages bring every library the binaries need"
echo "PASS"
