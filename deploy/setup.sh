#!/usr/bin/env bash
# Installs the Debian packages exocheck needs. Idempotent: installs only what is missing, and runs
# apt-get update only when something is missing.
#   setup.sh main   what the CLI, the daemons, the hook and the subjects build with (deploy/main.sh)
#   setup.sh all    that, CAF, and what the tests and the fuzzers need (deploy/test.sh, the default)
set -euo pipefail
profile=${1:-all}

main_packages=(
  g++ cmake ninja-build pkg-config
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libboost-dev libboost-filesystem-dev libboost-system-dev
  libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev
)
test_packages=(
  libgtest-dev libgmock-dev  # the tests
  libcaf-dev  # the CAF adapter and subjects/caf/
  chromium  # renders `exocheck trace view` pages in the tests
  libxml2-utils  # xmllint: the JUnit test checks `explore --junit` against its schema
  tmux  # the terminal test of `explore`'s progress line
  openssl  # the link security tests make their certificates
  python3  # subjects/reproduce.py, the papers' tables
  python3-yaml  # tests/deploy/check_manifests.py reads the Kubernetes manifests
  clang  # libFuzzer: tests/fuzz/run_fuzzers.sh
)
case "$profile" in
  main) packages=("${main_packages[@]}") ;;
  all) packages=("${main_packages[@]}" "${test_packages[@]}") ;;
  *) echo "setup: unknown profile '$profile' (main or all)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages of '$profile' present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
