// Controlled choice (exocheck::choose): every value is a delivery of its own, a transition from the
// configuration where the handler runs, dependent with the others of its message. On random
// programs whose handlers choose (with timers too), every reduction, with and without sleep sets,
// alone, with simulated parallel agents and in split subtrees, reaches what exhaustive exploration
// reaches; optimal DPOR runs one execution per class with one worker; and each value matters.
#include <gtest/gtest.h>

#include <cstdio>

#include "differential.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr int kPrograms = 300;

bool chooses(const Program& program) {
  for (const auto& type : program.types) {
    for (const auto& [message, handler] : type.handlers) {
      for (const auto& action : handler) {
        if (action.op == Action::Op::kChoose) return true;
      }
    }
  }
  return false;
}

void expect_every_reduction_reaches_what_exhaustive_reaches(Features features, std::uint64_t first_seed) {
  int programs = 0, choosing = 0;
  std::uint64_t optimal_blocked = 0;
  for (std::uint64_t seed = first_seed; programs < kPrograms; ++seed) {
    const Program program = generate_program(seed, features);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    choosing += chooses(program) ? 1 : 0;
    const Heuristic heuristic = kHeuristics[seed % 6];
    for (Reduction reduction : {Reduction::kDpor, Reduction::kTransDpor}) {
      for (bool sleep : {false, true}) {
        const ExplorerOptions options{reduction, sleep, heuristic};
        expect_same_reach(reference, explore(program, options), describe(seed, options));
      }
    }
    const ExplorerOptions optimal{Reduction::kOptimal, true, heuristic};
    const Reached once = explore(program, optimal);
    expect_same_reach(reference, once, describe(seed, optimal));
    EXPECT_EQ(once.stats.paths, once.stats.classes) << describe(seed, optimal) << ": an execution repeated a class";
    optimal_blocked += once.stats.sleep_blocked;
    const ExplorerOptions parallel{seed % 2 == 0 ? Reduction::kTransDpor : Reduction::kOptimal, true, heuristic};
    expect_same_reach(reference, explore_in_parallel(program, parallel, 4, seed),
                      describe(seed, parallel) + ", 4 agents");
    expect_same_reach(reference, explore_in_subtrees(program, parallel, 4, seed),
                      describe(seed, parallel) + ", in subtrees");
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms);
  EXPECT_GT(choosing, kPrograms / 2);
  std::printf("choices%s: %d programs (%d choose), optimal cut short %llu times\n",
              features.timers ? " and timers" : "", programs, choosing,
              static_cast<unsigned long long>(optimal_blocked));
}

TEST(Choices, EveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches({.choices = true}, 110001);
}

TEST(Choices, WithTimersEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches({.timers = true, .choices = true}, 120001);
}

// A handler's choice is explored whatever the run's heuristic: a program whose only branching is
// one choice among three has three classes.
TEST(Choices, EachValueIsAClassOfItsOwn) {
  Program program;
  program.message_names = {"Go"};
  program.types.push_back({"Chooser", {}, {{0, {{.op = Action::Op::kChoose, .value = 3}}}}, {}, {}});
  program.roots = {0};
  program.initial = {{0, 0, 0, -1}};
  for (Reduction reduction : {Reduction::kExhaustive, Reduction::kDpor, Reduction::kTransDpor, Reduction::kOptimal}) {
    const ExplorerOptions options{reduction, true, Heuristic::kFifo};
    const Reached reached = explore(program, options);
    EXPECT_EQ(reached.stats.classes, 3u) << describe(1, options);
    EXPECT_EQ(reached.final_states.size(), 3u) << describe(1, options);
  }
}

}  // namespace
}  // namespace exocheck::engine::testing
