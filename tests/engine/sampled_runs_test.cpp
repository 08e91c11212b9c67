// Sampled strategies (engine/src/sampled_runs.cpp): numbered runs with seeds of their own, which
// the hook's random walk and PCT (run by the interpreter, with the hook's own SchedulingOrder)
// turn into schedules. Sampling claims no completeness: what is checked is that every class a
// sample hits is one exhaustive exploration reaches, that a seed fixes the runs whatever the
// order results arrive in or however the runs are split among explorers, and PCT's k.
#include <gtest/gtest.h>

#include <set>

#include "differential.hpp"
#include "paper_programs.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

ExplorerOptions sampled(Strategy strategy, std::uint64_t runs, std::uint64_t seed, std::uint32_t depth = 3) {
  ExplorerOptions options;
  options.strategy = strategy;
  options.max_paths = runs;
  options.seed = seed;
  options.pct_depth = depth;
  return options;
}

bool subset(const std::set<std::string>& part, const std::set<std::string>& whole) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

TEST(SampledRuns, RunsAreNumberedAndEachHasASeedOfItsOwn) {
  Explorer explorer(sampled(Strategy::kRandomWalk, 5, 11));
  std::set<std::uint64_t> seeds;
  for (std::uint64_t run = 0; run < 5; ++run) {
    const auto item = explorer.next();
    ASSERT_TRUE(item && item->sample);
    EXPECT_TRUE(item->prefix.empty() && item->sleep.empty());
    EXPECT_EQ(item->sample->run, run);
    EXPECT_EQ(item->sample->strategy, Strategy::kRandomWalk);
    seeds.insert(item->sample->seed);
  }
  EXPECT_EQ(seeds.size(), 5u);
  EXPECT_FALSE(explorer.next());      // five runs asked for
  EXPECT_FALSE(explorer.finished());  // and none back yet
  Explorer again(sampled(Strategy::kRandomWalk, 5, 11));
  Explorer other(sampled(Strategy::kRandomWalk, 5, 12));
  const auto first = again.next();
  EXPECT_TRUE(seeds.count(first->sample->seed));
  EXPECT_FALSE(seeds.count(other.next()->sample->seed));
}

TEST(SampledRuns, PctLearnsItsStepEstimateFromRunZeroAlone) {
  const Program program = registry_program(3);
  Explorer explorer(sampled(Strategy::kPct, 4, 5));
  const auto first = explorer.next();
  ASSERT_TRUE(first && first->sample);
  EXPECT_EQ(first->sample->run, 0u);
  EXPECT_EQ(first->sample->pct_steps, 0u);  // no change point: k is not known yet
  EXPECT_FALSE(explorer.next());            // nothing else goes out before k is known
  const Execution execution = run_item(program, *first);
  ASSERT_TRUE(explorer.complete(first->id, execution));
  const auto second = explorer.next();
  ASSERT_TRUE(second && second->sample);
  EXPECT_EQ(second->sample->run, 1u);
  EXPECT_EQ(second->sample->pct_steps, execution.steps.size());
  EXPECT_EQ(second->sample->pct_depth, 3u);
}

TEST(SampledRuns, ARangeWithoutRunZeroLearnsKFromAnUncountedRunOfItsSchedule) {
  const Program program = registry_program(3);
  Subtree range;
  range.first_run = 10;
  range.run_count = 2;
  Explorer explorer(sampled(Strategy::kPct, 0, 5), range);
  const auto calibration = explorer.next();
  ASSERT_TRUE(calibration && calibration->sample);
  EXPECT_EQ(calibration->sample->run, 0u);
  EXPECT_FALSE(explorer.next());
  ASSERT_TRUE(explorer.complete(calibration->id, run_item(program, *calibration)));
  EXPECT_EQ(explorer.stats().paths, 0u);
  std::vector<std::uint64_t> runs;
  while (auto item = explorer.next()) {
    runs.push_back(item->sample->run);
    ASSERT_TRUE(explorer.complete(item->id, run_item(program, *item)));
  }
  EXPECT_EQ(runs, (std::vector<std::uint64_t>{10, 11}));
  EXPECT_EQ(explorer.stats().paths, 2u);
  EXPECT_TRUE(explorer.finished());
  EXPECT_FALSE(explorer.explored_completely());  // a sample never is
}

TEST(SampledRuns, RegistryFigures) {
  // Exact figures of these seeds (the registry with three workers has 24 classes).
  const Program program = registry_program(3);
  const Reached all = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo});
  ASSERT_EQ(all.stats.classes, 24u);
  const Reached walk = explore(program, sampled(Strategy::kRandomWalk, 300, 7));
  EXPECT_EQ(walk.stats.paths, 300u);
  EXPECT_EQ(walk.stats.classes, 24u);
  EXPECT_EQ(walk.classes, all.classes);
  const Reached few = explore(program, sampled(Strategy::kPct, 10, 7));
  EXPECT_EQ(few.stats.paths, 10u);
  EXPECT_LE(few.stats.classes, 10u);
  EXPECT_TRUE(subset(few.classes, all.classes));
  const Reached pos = explore(program, sampled(Strategy::kPos, 300, 7));
  EXPECT_EQ(pos.stats.paths, 300u);
  EXPECT_EQ(pos.classes, all.classes);
}

TEST(SampledRuns, SamplesHitOnlyClassesExhaustiveReachesAndASeedFixesThem) {
  int programs = 0;
  for (std::uint64_t seed = 1; programs < 1000; ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    for (Strategy strategy : {Strategy::kRandomWalk, Strategy::kPct, Strategy::kPos}) {
      const auto options = sampled(strategy, 40, seed);
      const std::string what = "program " + std::to_string(seed) + " strategy " + std::to_string(int(strategy));
      const Reached one = explore(program, options);
      EXPECT_EQ(one.stats.paths, 40u) << what;
      EXPECT_TRUE(subset(one.classes, reference.classes)) << what;
      EXPECT_TRUE(subset(one.deadlocks, reference.deadlocks)) << what;
      EXPECT_TRUE(subset(one.final_states, reference.final_states)) << what;
      // The same runs whatever the order results come back in, or the explorers that run them.
      const Reached parallel = explore_in_parallel(program, options, 3, seed);
      EXPECT_EQ(parallel.classes, one.classes) << what;
      EXPECT_EQ(parallel.stats.paths, 40u) << what;
      const Reached split = explore_in_subtrees(program, options, 3, seed);
      EXPECT_EQ(split.classes, one.classes) << what;
      EXPECT_EQ(split.stats.paths, 40u) << what;
    }
  }
}

TEST(SampledRuns, SplitGivesAwayHalfOfTheRunsLeft) {
  Explorer explorer(sampled(Strategy::kRandomWalk, 100, 3));
  const auto item = explorer.next();  // run 0
  const auto range = explorer.split();
  ASSERT_TRUE(range);
  EXPECT_EQ(range->first_run, 1u);
  EXPECT_EQ(range->run_count, 49u);
  EXPECT_EQ(explorer.next()->sample->run, 50u);
  EXPECT_EQ(explorer.frontier(), 49u);
  Explorer open_ended(sampled(Strategy::kRandomWalk, 0, 3));
  const auto chunk = open_ended.split();
  ASSERT_TRUE(chunk);
  EXPECT_GT(chunk->run_count, 0u);  // a time limit ends them: ranges of a fixed size
  EXPECT_FALSE(open_ended.finished());
}

}  // namespace
}  // namespace exocheck::engine::testing
