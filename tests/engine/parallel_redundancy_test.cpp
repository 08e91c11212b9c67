// Redundancy from parallelism: K simulated agents returning results in a random order must not
// make the engine explore (many) more paths than one worker does. The bound is 1.05 for
// 2 workers; 8 workers are held to the same bound here.
#include <gtest/gtest.h>

#include <string>

#include "exploration.hpp"
#include "paper_programs.hpp"

namespace exocheck::engine::testing {
namespace {

void expect_little_redundancy(const Program& program, const std::string& name, Reduction reduction, Heuristic heuristic,
                              bool sleep_sets) {
  const ExplorerOptions options{reduction, sleep_sets, heuristic};
  const Reached alone = explore(program, options);
  for (int workers : {2, 8}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const Reached together = explore_in_parallel(program, options, workers, seed);
      const std::string what = name + " " + std::string(name_of(reduction)) + (sleep_sets ? "+sleep " : " ") +
                               std::string(name_of(heuristic)) + " with " + std::to_string(workers) +
                               " workers, seed " + std::to_string(seed);
      EXPECT_EQ(together.classes, alone.classes) << what;
      EXPECT_LE(together.stats.paths * 100, alone.stats.paths * 105)
          << what << ": " << together.stats.paths << " paths against " << alone.stats.paths << " alone";
    }
  }
}

TEST(ParallelRedundancy, RegistryAndPiExploreAsManyPathsAsOneWorkerDoes) {
  const Program registry = registry_program(2);
  const Program pi = pi_program(5);
  for (Reduction reduction : {Reduction::kDpor, Reduction::kTransDpor}) {
    for (bool sleep_sets : {false, true}) {
      expect_little_redundancy(registry, "registry", reduction, Heuristic::kFifo, sleep_sets);
      for (Heuristic heuristic : {Heuristic::kFifo, Heuristic::kEca}) {
        expect_little_redundancy(pi, "pi 5", reduction, heuristic, sleep_sets);
      }
    }
  }
  // LCA: the heuristics paper's worst case for pi; 19,845 paths with DPOR alone, so TransDPOR only.
  expect_little_redundancy(pi, "pi 5", Reduction::kTransDpor, Heuristic::kLca, false);
  expect_little_redundancy(pi, "pi 5", Reduction::kTransDpor, Heuristic::kLca, true);
}

}  // namespace
}  // namespace exocheck::engine::testing
