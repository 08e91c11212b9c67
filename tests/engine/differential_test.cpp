// Soundness, checked differentially (DESIGN.md, "Correctness contract"): on many random
// programs, every reduction, with and without sleep sets, under every heuristic, and with
// simulated parallel agents, reaches exactly the classes, final states, deadlocks and
// assertion failures that exhaustive exploration reaches.
#include <gtest/gtest.h>

#include "differential.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr int kPrograms = 1000;
struct Coverage {
  int programs = 0;
  int with_deadlock = 0;
  int with_failure = 0;
  int explorations = 0;
};

TEST(Differential, EveryReductionReachesWhatExhaustiveReaches) {
  Coverage coverage;
  for (std::uint64_t seed = 1; coverage.programs < kPrograms; ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++coverage.programs;
    coverage.with_deadlock += !reference.deadlocks.empty();
    coverage.with_failure += !reference.failures.empty();
    for (Heuristic heuristic : kHeuristics) {
      for (bool sleep : {false, true}) {
        std::uint64_t dpor_paths = 0;
        for (Reduction reduction : {Reduction::kExhaustive, Reduction::kDpor, Reduction::kTransDpor}) {
          const ExplorerOptions options{reduction, sleep, heuristic};
          const Reached reached = explore(program, options);
          ++coverage.explorations;
          expect_same_reach(reference, reached, describe(seed, options));
          if (reduction == Reduction::kDpor) dpor_paths = reached.stats.paths;
          if (reduction == Reduction::kTransDpor) {
            EXPECT_LE(reached.stats.paths, dpor_paths)
                << "TransDPOR explored more than DPOR: " << describe(seed, options);
          }
        }
      }
    }
    if (::testing::Test::HasFailure()) break;  // one program's report is enough to debug
  }
  EXPECT_EQ(coverage.programs, kPrograms);
  // The generator must exercise what the contract is about.
  EXPECT_GT(coverage.with_deadlock, kPrograms / 20);
  EXPECT_GT(coverage.with_failure, kPrograms / 20);
  std::printf("programs %d (with deadlocks %d, with failed checks %d), explorations %d\n", coverage.programs,
              coverage.with_deadlock, coverage.with_failure, coverage.explorations);
}

TEST(Differential, SimulatedParallelAgentsReachWhatExhaustiveReaches) {
  int programs = 0;
  for (std::uint64_t seed = 5001; programs < kPrograms; ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    const Reduction reduction = seed % 3 == 0   ? Reduction::kExhaustive
                                : seed % 3 == 1 ? Reduction::kDpor
                                                : Reduction::kTransDpor;
    // TransDPOR drops races that out-of-order results bring (see transdpor_policy.cpp), so it
    // also runs on every program, with the other sleep-set setting and another heuristic.
    const ExplorerOptions options{reduction, seed % 2 == 0, kHeuristics[seed % 8]};
    const ExplorerOptions transdpor{Reduction::kTransDpor, seed % 2 != 0, kHeuristics[(seed / 3) % 8]};
    for (int workers : {2, 8, 64}) {
      for (const ExplorerOptions& o : {options, transdpor}) {
        const Reached reached = explore_in_parallel(program, o, workers, seed * 131 + workers);
        expect_same_reach(reference, reached, describe(seed, o) + ", " + std::to_string(workers) + " agents");
      }
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms);
}

// Agents leave out the steps of a run's prefix (the tree holds them): the engine must explore
// exactly as it does with whole runs, alone and with simulated parallel agents.
TEST(Differential, RunsWithoutTheirPrefixExploreExactlyAsWholeRuns) {
  int programs = 0;
  for (std::uint64_t seed = 9001; programs < kPrograms / 2; ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    for (Reduction reduction : {Reduction::kExhaustive, Reduction::kDpor, Reduction::kTransDpor}) {
      const ExplorerOptions options{reduction, seed % 2 == 0, kHeuristics[seed % 6]};  // not HMS, SGR
      const std::string what = describe(seed, options);
      const Reached whole = explore(program, options);
      const Reached trimmed = explore(program, options, Results::kWithoutPrefix);
      EXPECT_EQ(trimmed.classes, whole.classes) << what;
      EXPECT_EQ(trimmed.stats.paths, whole.stats.paths) << what;
      EXPECT_EQ(trimmed.stats.transitions, whole.stats.transitions) << what;
      EXPECT_EQ(trimmed.stats.executed_steps, whole.stats.executed_steps) << what;
      EXPECT_EQ(trimmed.stats.sleep_blocked, whole.stats.sleep_blocked) << what;
      EXPECT_EQ(trimmed.stats.bugs, whole.stats.bugs) << what;
      const Reached parallel = explore_in_parallel(program, options, 8, seed, Results::kWithoutPrefix);
      expect_same_reach(reference, parallel, what + ", 8 agents, runs without their prefix");
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms / 2);
}

}  // namespace
}  // namespace exocheck::engine::testing
