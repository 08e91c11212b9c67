// Runs a failure cuts off (race.hpp, find_cut_off_race): an assert() ends the process in the step
// that fails, and what was still enabled never runs. On random programs whose handlers may abort
// so, every reduction, with and without sleep sets, alone, with simulated parallel agents and in
// split subtrees, reaches every completed final state, every deadlock and every failure (by the
// failing step's causal past) exhaustive exploration reaches. Not every class: a cut-off run's
// class holds what happened to be delivered before the failure, and moving the failure before
// deliveries it is independent of gives the same failure with less delivered, which exhaustive
// counts apart (dependency.md, "A run a failure cuts off").
#include <gtest/gtest.h>

#include <cstdio>

#include "differential.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr int kPrograms = 300;

void expect_same_outcomes(const Reached& expected, const Reached& actual, const std::string& what) {
  EXPECT_EQ(actual.final_states, expected.final_states) << what;
  EXPECT_EQ(actual.deadlocks, expected.deadlocks) << what;
  EXPECT_EQ(actual.failures, expected.failures) << what;
  EXPECT_EQ(actual.stats.classes, actual.classes.size()) << what << ": classes counted";
}

TEST(CutOff, EveryReductionReachesTheOutcomesExhaustiveReaches) {
  int programs = 0;
  int cut_off = 0;  ///< programs with a run a failure ended while something else was enabled
  for (std::uint64_t seed = 190001; programs < kPrograms; ++seed) {
    const Program program = generate_program(seed, {.aborts = true});
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    if (reference.cut_off > 0) ++cut_off;
    const Heuristic heuristic = kHeuristics[seed % 6];
    for (Reduction reduction : {Reduction::kDpor, Reduction::kTransDpor, Reduction::kOptimal}) {
      for (bool sleep : {false, true}) {
        const ExplorerOptions options{reduction, sleep, heuristic};
        expect_same_outcomes(reference, explore(program, options), describe(seed, options));
      }
    }
    const ExplorerOptions parallel{seed % 2 == 0 ? Reduction::kTransDpor : Reduction::kOptimal, true, heuristic};
    expect_same_outcomes(reference, explore_in_parallel(program, parallel, 4, seed),
                         describe(seed, parallel) + ", 4 agents");
    expect_same_outcomes(reference, explore_in_subtrees(program, parallel, 4, seed),
                         describe(seed, parallel) + ", in subtrees");
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms);
  // The aborts are there: in many programs they end runs that would have gone on.
  EXPECT_GT(cut_off, kPrograms / 4);
  std::printf("%d programs, %d with runs an abort cut off\n", programs, cut_off);
}

// Optimal DPOR with many runs out: a run that a failure ends inside its prefix (a delivery whose
// content changed with its sender's order now aborts) was taken for a guard's hold-back of its last
// entry, whose configuration went with the other items' below it: the engine crashed as they came
// back (program seed 191492 with 8 agents, 190134 with 16 before the change above).
TEST(CutOff, OptimalWithManyRunsOutFollowsARunAFailureEndsInsideItsPrefix) {
  int programs = 0;
  for (std::uint64_t seed = 191401; programs < kPrograms / 2; ++seed) {
    const Program program = generate_program(seed, {.aborts = true});
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    for (int agents : {8, 16}) {
      const ExplorerOptions optimal{Reduction::kOptimal, true, kHeuristics[seed % 6]};
      const std::string what = describe(seed, optimal) + ", " + std::to_string(agents) + " agents";
      expect_same_outcomes(reference, explore_in_parallel(program, optimal, agents, seed + agents), what);
      expect_same_outcomes(reference, explore_in_subtrees(program, optimal, agents, seed + agents),
                           what + ", in subtrees");
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms / 2);
}

}  // namespace
}  // namespace exocheck::engine::testing
