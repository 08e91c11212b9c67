// The portfolio (engine/src/portfolio_exploration.cpp): the systematic exploration with randomized
// members beside it. Its promise is the systematic member's: every class exhaustive exploration
// reaches is reached, complete means complete, on random programs as on the papers', whatever the
// order results come back in, embedded or leased in subtrees as a coordinator's job runs it; the
// randomized members add runs (Stats::sampled), bugs, and nothing to the figures of completeness.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "differential.hpp"
#include "exploration.hpp"
#include "paper_programs.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

ExplorerOptions portfolio(Reduction reduction, std::uint64_t seed = 1) {
  ExplorerOptions options;
  options.strategy = Strategy::kPortfolio;
  options.reduction = reduction;
  options.sleep_sets = true;
  options.seed = seed;
  return options;
}

/// Calls `check(seed, program, reference)` on the first `count` random programs from `first_seed` whose
/// exhaustive exploration has 2 to kLargestSpace paths; stops at a failure.
template <typename Check>
void for_small_programs(std::uint64_t first_seed, int count, Check check) {
  int programs = 0;
  for (std::uint64_t seed = first_seed; programs < count && !::testing::Test::HasFailure(); ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    check(seed, program, reference);
  }
}

TEST(Portfolio, ReachesWhatExhaustiveReachesAndIsCompleteOnlyThroughItsSystematicPart) {
  for_small_programs(1, 300, [](std::uint64_t seed, const Program& program, const Reached& reference) {
    for (Reduction reduction : {Reduction::kOptimal, Reduction::kTransDpor}) {
      const ExplorerOptions options = portfolio(reduction, seed);
      const std::string what = describe(seed, options) + ", portfolio";
      ExplorerOptions alone = options;
      alone.strategy = Strategy::kSystematic;
      const Reached systematic = explore(program, alone);
      const Reached one = explore(program, options);
      expect_same_reach(reference, one, what);
      // The systematic member's figures, as it makes them alone.
      EXPECT_EQ(one.stats.paths, systematic.stats.paths) << what;
      EXPECT_EQ(one.stats.classes, systematic.stats.classes) << what;
      // Sampled turns of 16 come after systematic turns of 16, and end with the systematic part.
      EXPECT_LE(one.stats.sampled, systematic.stats.paths + systematic.stats.sleep_blocked + 16) << what;
      const Reached parallel = explore_in_parallel(program, options, 3, seed, Results::kWithoutPrefix);
      expect_same_reach(reference, parallel, what + ", 3 workers");
    }
  });
}

TEST(Portfolio, TakesTurnsOfSixteenAndItsRandomizedMembersTakeTurnsToo) {
  const Program program = registry_program(6);
  Explorer explorer(portfolio(Reduction::kOptimal, 3));
  std::vector<bool> sampled;
  std::map<std::pair<Strategy, std::uint32_t>, int> members;
  while (auto item = explorer.next()) {
    sampled.push_back(item->sample.has_value());
    if (item->sample) ++members[{item->sample->strategy, item->sample->pct_depth}];
    ASSERT_TRUE(explorer.complete(item->id, run_item(program, *item)));
  }
  ASSERT_TRUE(explorer.finished());
  EXPECT_TRUE(explorer.explored_completely());
  const Reached alone = explore(program, {Reduction::kOptimal, true, Heuristic::kFifo});
  EXPECT_EQ(explorer.stats().paths, alone.stats.paths);
  EXPECT_EQ(explorer.stats().classes, alone.stats.classes);
  ASSERT_GT(sampled.size(), 64u);
  // A sampled turn first: randomized runs find shallow bugs soonest.
  for (std::size_t i = 0; i < 64; ++i) EXPECT_EQ(sampled[i], i / 16 % 2 == 0) << "item " << i;
  EXPECT_EQ(explorer.stats().sampled, static_cast<std::uint64_t>(std::count(sampled.begin(), sampled.end(), true)));
  // Random walk, PCT of depth 2, 3 and 5, POS in turn: each had its share.
  EXPECT_EQ(members.size(), 5u);
  EXPECT_EQ(
      std::count_if(members.begin(), members.end(), [](const auto& m) { return m.first.first == Strategy::kPos; }), 1);
  for (const auto& [member, runs] : members) EXPECT_GE(runs, 4) << "pct depth " << member.second;
  EXPECT_FALSE(explorer.next());
}

TEST(Portfolio, AfterABugOneTurnInFourIsSampled) {
  // The registry whose registry fails a check on its sixth Register (acc % 3 is 0, 1 or 2): every
  // path ends in a bug, the first run's included, and the orders of the Registers are still many.
  Program program = registry_program(5);
  for (auto& [message, handler] : program.types[1].handlers) {
    for (int value = 0; value < 3; ++value)
      handler.push_back({.op = Action::Op::kCheck, .value = value, .when_count = 5});
  }
  Explorer explorer(portfolio(Reduction::kOptimal, 5));
  std::vector<bool> sampled;
  while (auto item = explorer.next()) {
    sampled.push_back(item->sample.has_value());
    ASSERT_TRUE(explorer.complete(item->id, run_item(program, *item)));
    if (sampled.size() == 256) break;
  }
  ASSERT_EQ(sampled.size(), 256u);
  for (std::size_t i = 0; i < sampled.size(); ++i) EXPECT_EQ(sampled[i], i / 16 % 4 == 0) << "item " << i;
  EXPECT_EQ(explorer.stats().bugs, explorer.stats().paths + explorer.stats().sampled);  // every run failed
}

TEST(Portfolio, LeasedInSubtreesReachesWhatExhaustiveReaches) {
  // As a coordinator's job runs it: each lease a portfolio over its subtree, split at random.
  int split_explorations = 0;
  int explorations = 0;
  for_small_programs(7001, 150, [&](std::uint64_t seed, const Program& program, const Reached& reference) {
    for (Reduction reduction : {Reduction::kOptimal, Reduction::kTransDpor}) {
      const ExplorerOptions options = portfolio(reduction, seed);
      int splits = 0;
      const Reached reached = explore_in_subtrees(program, options, 4, seed * 5, &splits);
      const std::string what =
          describe(seed, options) + ", portfolio in subtrees, " + std::to_string(splits) + " splits";
      ++explorations;
      split_explorations += splits > 0;
      expect_same_reach(reference, reached, what);
      EXPECT_EQ(reached.class_keys, reference.class_keys) << what;
    }
  });
  EXPECT_GT(split_explorations, explorations / 2);  // it must split for the test to mean anything
}

TEST(Portfolio, ASubtreeStartsSystematicAndSamplesRunsOfItsOwn) {
  const Program program = registry_program(5);
  Explorer root(portfolio(Reduction::kOptimal, 9));
  std::vector<WorkItem> root_items;
  std::optional<Subtree> given;
  while (!given) {
    auto item = root.next();
    ASSERT_TRUE(item);
    root_items.push_back(*item);
    if (!item->sample) {
      ASSERT_TRUE(root.complete(item->id, run_item(program, *item)));
      given = root.split();
    }
  }
  ASSERT_FALSE(given->prefix.empty() && given->wakeup.empty());
  Explorer leased(portfolio(Reduction::kOptimal, 9), *given);
  std::vector<WorkItem> leased_items;
  while (auto item = leased.next()) {
    leased_items.push_back(*item);
    ASSERT_TRUE(leased.complete(item->id, run_item(program, *item)));
  }
  EXPECT_TRUE(leased.explored_completely());
  ASSERT_FALSE(leased_items.empty());
  // A systematic turn first: a small subtree is not given more sampled runs than it has paths.
  EXPECT_FALSE(leased_items.front().sample.has_value());
  EXPECT_LE(leased.stats().sampled, leased.stats().paths + leased.stats().sleep_blocked);
  // Its samplers' seeds are not the root's: two leases do not run the same samples.
  std::set<std::uint64_t> root_seeds;
  for (const auto& item : root_items) {
    if (item.sample) root_seeds.insert(item.sample->seed);
  }
  for (const auto& item : leased_items) {
    if (!item.sample) continue;
    EXPECT_FALSE(root_seeds.contains(item.sample->seed));
  }
}

TEST(Portfolio, HandsOutNothingOnceInterrupted) {
  const Program program = registry_program(3);
  Explorer explorer(portfolio(Reduction::kOptimal));
  const auto first = explorer.next();
  ASSERT_TRUE(first);
  explorer.interrupt();
  EXPECT_FALSE(explorer.next());
  EXPECT_FALSE(explorer.split());
  EXPECT_FALSE(explorer.finished());  // the first item is still out
  ASSERT_TRUE(explorer.complete(first->id, run_item(program, *first)));
  EXPECT_TRUE(explorer.finished());
  EXPECT_FALSE(explorer.explored_completely());
}

}  // namespace
}  // namespace exocheck::engine::testing
