# The example programs of CAF 0.17.6 that need no network, GUI or curl (20), as the benchmarks
# that build them name them, and how one is built (sourced by caf_examples.sh and
# caf_examples_record.sh).
# shellcheck disable=SC2034
caf_example_programs=(aout hello_world composition/calculator_behavior composition/dictionary_behavior
  custom_type/custom_types_1 custom_type/custom_types_2 custom_type/custom_types_3
  dynamic_behavior/dining_philosophers dynamic_behavior/skip_messages message_passing/calculator
  message_passing/cell message_passing/dancing_kirby message_passing/delegating message_passing/divider
  message_passing/fixed_stack message_passing/promises message_passing/request
  message_passing/typed_calculator streaming/integer_stream testing/ping_pong)

# build_caf_example EXAMPLES_DIR PROGRAM OUT_DIR: PROGRAM built unmodified against Debian's
# libcaf-dev as OUT_DIR/NAME (NAME: PROGRAM with '/' as '_'), its compiler's messages in
# OUT_DIR/NAME.build; fails when it does not build.
build_caf_example() {
  local name=${2//\//_}
  c++ -std=c++17 -O1 -w -o "$3/$name" "$1/$2.cpp" -lcaf_io -lcaf_core -lpthread 2>"$3/$name.build"
}
