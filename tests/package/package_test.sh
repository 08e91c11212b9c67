#!/usr/bin/env bash
# The installed package as a user meets it: `cmake --install` into a temporary prefix, then
#  1. an outside CMake project finds it (find_package(exocheck)), links exocheck::hook and
#     exocheck::caf, and the installed exocheck explores both programs;
#  2. the same native program compiled with `pkg-config --cflags --libs exocheck`;
#  3. a plain CAF program (no exocheck at all), which the installed exocheck attaches to itself;
#  4. a configuration of the hook and the CLI alone needs no GoogleTest;
#  5. the outside project's ctest: an exploration registered with exocheck_add_exploration and
#     ordinary tests recorded with exocheck_record_tests, whose failed run's trace replays.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d /tmp/exocheck-package.XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "package_test: FAIL: $*" >&2; exit 1; }

echo "== cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "install"; }
exocheck=$prefix/bin/exocheck
[ -x "$exocheck" ] || fail "no $exocheck"

# Explores `binary` with the installed exocheck and checks the summary: complete, no bug, `classes`.
expect_classes() {
  local binary=$1 classes=$2 out=$work/out-$(basename "$1")
  local status=0
  (cd "$work" && "$exocheck" explore --workers 2 --json --out "$out" -- "$binary" >"$out.json" 2>"$out.err") || status=$?
  [ "$status" -eq 0 ] || { cat "$out.err" "$out.json"; fail "$binary: exit $status"; }
  python3 - "$out.json" "$classes" "$binary" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
classes, binary = int(sys.argv[2]), sys.argv[3]
got = (summary["complete"], summary["stats"]["classes"], len(summary["bugs"]))
if got != (True, classes, 0):
    sys.exit(f"package_test: FAIL: {binary}: complete, classes, bugs = {got}, expected {(True, classes, 0)}")
print(f"{binary}: complete, {classes} classes, no bug")
PY
}

echo "== an outside project with find_package(exocheck)"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$source/tests/package/outside" -B "$work/outside" "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$work/outside.log" || { cat "$work/outside.log"; fail "configure"; }
cmake --build "$work/outside" >>"$work/outside.log" || { cat "$work/outside.log"; fail "build"; }
expect_classes "$work/outside/tally" 6
if [ -x "$work/outside/caf-tally" ]; then
  expect_classes "$work/outside/caf-tally" 6
else
  echo "(exocheck was built without CAF: no exocheck::caf)"
fi

echo "== the outside project's ctest: exocheck_add_exploration, exocheck_record_tests"
(cd "$work/outside" && ctest --output-on-failure >"$work/ctest.log" 2>&1) || { cat "$work/ctest.log"; fail "ctest"; }
junit=$work/outside/exocheck/tally-explored-junit.xml
grep -q 'failures="0"' "$junit" || { cat "$junit"; fail "tally-explored's JUnit report"; }
[ -e "$work/outside/exocheck/tally-explored/summary.json" ] || fail "tally-explored's summary"
# tally-wrong failed (and caf-tally-wrong, a plain CAF program recorded with the adapter preloaded):
# each recording is a trace that replays to the failed check; tally-run passed.
expected=1
[ -x "$work/outside/caf-tally-plain" ] && expected=2
traces=("$work"/outside/exocheck-recordings/traces/*.trace)
[ "${#traces[@]}" -eq "$expected" ] && [ -e "${traces[0]}" ] ||
  { ls -R "$work/outside/exocheck-recordings"; fail "$expected traces"; }
for trace in "${traces[@]}"; do
  replayed=$("$exocheck" replay "$trace" || true)
  grep -q '^Replay: reproduced RUN_ASSERTION_FAILED' <<<"$replayed" || { echo "$replayed"; fail "the recorded failure"; }
done
if ls "$work"/outside/exocheck-recordings/tally-run-*.log >/dev/null 2>&1; then fail "a passed run's log was kept"; fi
echo "ctest: the exploration passed with its JUnit report; the failed tests' recordings replay ($expected)"

echo "== pkg-config --cflags --libs exocheck"
export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name exocheck.pc)")
# shellcheck disable=SC2046
g++ -std=c++20 -O1 "$source/tests/package/outside/tally.cpp" -o "$work/tally-pc" $(pkg-config --cflags --libs exocheck) ||
  fail "compile with pkg-config"
expect_classes "$work/tally-pc" 6

if [ -e /usr/include/caf/all.hpp ]; then
  echo "== a plain CAF program: the installed exocheck preloads the installed adapter"
  g++ -std=c++17 -O1 "$source/tests/package/outside/caf_tally.cpp" -o "$work/caf-tally-plain" -lcaf_core -pthread ||
    fail "compile the plain CAF program"
  expect_classes "$work/caf-tally-plain" 6
fi

echo "== the hook and the CLI alone configure without GoogleTest"
cmake -S "$source" -B "$work/minimal" "${generator[@]}" -DEXOCHECK_BUILD_TESTS=OFF -DEXOCHECK_BUILD_SUBJECTS=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON >"$work/minimal.log" 2>&1 || { cat "$work/minimal.log"; fail "configure"; }
# CMAKE_DISABLE_FIND_PACKAGE_GTest makes a find_package(GTest REQUIRED) an error: configuring was the test.
if grep -qE '^(GTEST_|GTest_DIR)' "$work/minimal/CMakeCache.txt"; then fail "the minimal configuration looked for GTest"; fi
targets=$(cmake --build "$work/minimal" --target help)
for target in exocheck exocheck-agent exocheck-coordinator exocheck_hook exocheck_hook_static; do
  grep -qE "(^|[ /])$target[:,]" <<<"$targets" || fail "the minimal configuration has no target $target"
done
if grep -qE "(^|[ /])(registry|explore_test)[:,]" <<<"$targets"; then fail "the minimal configuration builds tests or subjects"; fi
echo "minimal configuration: hook and CLI, no GoogleTest, no tests, no subjects"
echo "package_test: all passed"
