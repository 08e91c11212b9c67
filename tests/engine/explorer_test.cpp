// The explorer's contract with whoever runs its work items: results accepted once, lost items
// handed out again, limits respected.
#include <gtest/gtest.h>

#include "exocheck/engine/explorer.hpp"
#include "interpreter.hpp"
#include "paper_programs.hpp"

namespace exocheck::engine::testing {
namespace {

Execution run(const Program& program, const WorkItem& item) {
  RunSpec spec;
  spec.prefix = item.prefix;
  spec.sleep = item.sleep;
  return run_program(program, spec);
}

TEST(Explorer, StartsWithOneRunOfTheEmptyPrefix) {
  Explorer explorer({Reduction::kTransDpor, true, Heuristic::kFifo});
  auto first = explorer.next();
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->prefix.empty());
  EXPECT_FALSE(explorer.next());  // nothing is known before the first run returns
  EXPECT_EQ(explorer.outstanding(), 1u);
  EXPECT_FALSE(explorer.finished());
}

TEST(Explorer, AcceptsAResultOnceAndIgnoresUnknownItems) {
  const Program registry = registry_program(2);
  Explorer explorer({Reduction::kDpor, false, Heuristic::kFifo});
  auto first = explorer.next();
  const Execution execution = run(registry, *first);
  EXPECT_TRUE(explorer.complete(first->id, execution));
  EXPECT_FALSE(explorer.complete(first->id, execution));
  EXPECT_FALSE(explorer.complete(999, execution));
  EXPECT_EQ(explorer.stats().paths, 1u);
  EXPECT_EQ(explorer.stats().transitions, 5u);
}

TEST(Explorer, AnAbandonedItemIsHandedOutAgainUnchanged) {
  const Program registry = registry_program(2);
  Explorer explorer({Reduction::kDpor, false, Heuristic::kFifo});
  auto first = explorer.next();
  explorer.complete(first->id, run(registry, *first));
  auto second = explorer.next();
  ASSERT_TRUE(second);
  explorer.abandon(second->id);
  auto again = explorer.next();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, second->id);
  EXPECT_EQ(again->prefix, second->prefix);
  EXPECT_EQ(again->sleep, second->sleep);
}

TEST(Explorer, ThePathLimitStopsHandingOutWork) {
  const Program registry = registry_program(2);
  ExplorerOptions options{Reduction::kExhaustive, false, Heuristic::kFifo};
  options.max_paths = 7;
  Explorer explorer(options);
  while (auto item = explorer.next()) explorer.complete(item->id, run(registry, *item));
  EXPECT_EQ(explorer.stats().paths, 7u);
  EXPECT_TRUE(explorer.finished());
  EXPECT_FALSE(explorer.explored_completely());
}

TEST(Explorer, ExploringToTheEndIsReportedAsComplete) {
  const Program registry = registry_program(2);
  Explorer explorer({Reduction::kTransDpor, false, Heuristic::kFifo});
  while (auto item = explorer.next()) explorer.complete(item->id, run(registry, *item));
  EXPECT_TRUE(explorer.finished());
  EXPECT_TRUE(explorer.explored_completely());
  EXPECT_EQ(explorer.frontier(), 0u);
}

TEST(Explorer, CanonicalFormsAreThePerActorDeliverySequences) {
  Execution execution;
  execution.steps.resize(3);
  execution.steps[0].actor = "0.1";
  execution.steps[0].message = "0#1";
  execution.steps[1].actor = "0";
  execution.steps[1].message = "env#1";
  execution.steps[2].actor = "0.1";
  execution.steps[2].message = "0#2";
  EXPECT_EQ(canonical_form(execution), "0:env#1;0.1:0#1,0#2;");
}

TEST(Options, NamesRoundTrip) {
  for (auto reduction : {Reduction::kExhaustive, Reduction::kDpor, Reduction::kTransDpor}) {
    EXPECT_EQ(parse_reduction(name_of(reduction)), reduction);
  }
  for (auto heuristic : {Heuristic::kFifo, Heuristic::kLifo, Heuristic::kEca, Heuristic::kLca, Heuristic::kLdm,
                         Heuristic::kHdm, Heuristic::kHms, Heuristic::kSgr}) {
    EXPECT_EQ(parse_heuristic(name_of(heuristic)), heuristic);
  }
  EXPECT_FALSE(parse_reduction("odpor"));
  EXPECT_FALSE(parse_heuristic("random"));
}

}  // namespace
}  // namespace exocheck::engine::testing
