// The explorer's contract with whoever runs its work items: results accepted once, lost items
// handed out again, limits respected.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "exocheck/engine/explorer.hpp"
#include "history.hpp"
#include "interpreter.hpp"
#include "paper_programs.hpp"
#include "trace_view.hpp"

namespace exocheck::engine::testing {
namespace {

Execution run(const Program& program, const WorkItem& item) {
  RunSpec spec;
  spec.prefix = item.prefix;
  spec.sleep = item.sleep;
  spec.sleep_notifying = item.sleep_notifying;
  spec.sleep_notifying_lanes = item.sleep_notifying_lanes;
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

// A time limit or Ctrl-C stops the explorer from another thread, also inside complete(): the
// result's analysis gives up (no race of it opens a choice), nothing more is handed out, and the
// exploration is finished once the items out are back, never complete.
TEST(Explorer, AnInterruptedExplorerAnalysesNoMoreAndHandsOutNothing) {
  const Program registry = registry_program(2);
  for (const Reduction reduction : {Reduction::kDpor, Reduction::kTransDpor, Reduction::kOptimal}) {
    SCOPED_TRACE(static_cast<int>(reduction));
    Explorer explorer({reduction, true, Heuristic::kFifo});
    auto first = explorer.next();
    ASSERT_TRUE(first);
    explorer.interrupt();
    EXPECT_FALSE(explorer.next());
    EXPECT_FALSE(explorer.finished());  // its item is out
    EXPECT_TRUE(explorer.complete(first->id, run(registry, *first)));
    EXPECT_EQ(explorer.stats().paths, 1u);
    EXPECT_EQ(explorer.frontier(), 0u);
    EXPECT_FALSE(explorer.next());
    EXPECT_FALSE(explorer.split());
    EXPECT_TRUE(explorer.finished());
    EXPECT_FALSE(explorer.explored_completely());
  }
  // Not interrupted, the same first run's races open choices.
  Explorer explorer({Reduction::kOptimal, true, Heuristic::kFifo});
  auto first = explorer.next();
  explorer.complete(first->id, run(registry, *first));
  EXPECT_GT(explorer.frontier(), 0u);
}

TEST(Explorer, ExploringToTheEndIsReportedAsComplete) {
  const Program registry = registry_program(2);
  Explorer explorer({Reduction::kTransDpor, false, Heuristic::kFifo});
  while (auto item = explorer.next()) explorer.complete(item->id, run(registry, *item));
  EXPECT_TRUE(explorer.finished());
  EXPECT_TRUE(explorer.explored_completely());
  EXPECT_EQ(explorer.frontier(), 0u);
}

// A stateless explorer needs the configurations of the paths it is still exploring only: explored
// subtrees are dropped as they end, not kept until the exploration does.
TEST(Explorer, AloneHoldsTheConfigurationsOfOnePath) {
  const Program registry = registry_program(5);
  Explorer explorer({Reduction::kTransDpor, true, Heuristic::kFifo});
  std::size_t peak = 0, longest = 0;
  while (auto item = explorer.next()) {
    const Execution execution = run(registry, *item);
    longest = std::max(longest, execution.steps.size());  // step 0 and the steps after it: one configuration each
    explorer.complete(item->id, execution);
    peak = std::max(peak, explorer.configurations());
  }
  EXPECT_TRUE(explorer.explored_completely());
  EXPECT_EQ(explorer.stats().paths, 720u);
  EXPECT_EQ(explorer.stats().transitions, 1966u);  // the whole tree: 1,967 configurations
  // Between results, at most the longest path's configurations but its last, dropped once reached.
  EXPECT_EQ(longest, 11u);
  EXPECT_EQ(peak, 10u);
  EXPECT_EQ(explorer.configurations(), 1u);  // the root
}

// Simulated workers: each keeps an item out, and results come back in a seeded random order;
// `after_each` looks at the explorer after each result. Returns the most configurations the tree
// held between results.
std::size_t explore_in_random_order(const Program& program, Explorer& explorer, std::size_t workers,
                                    std::uint64_t seed = 7, const std::function<void()>& after_each = {}) {
  std::mt19937_64 random(seed);
  std::vector<WorkItem> out;
  std::size_t peak = 0;
  for (;;) {
    while (out.size() < workers) {
      auto item = explorer.next();
      if (!item) break;
      out.push_back(std::move(*item));
    }
    if (out.empty()) break;
    const auto done = out.begin() + static_cast<std::ptrdiff_t>(random() % out.size());
    explorer.complete(done->id, run(program, *done));
    out.erase(done);
    peak = std::max(peak, explorer.configurations());
    if (after_each) after_each();
  }
  return peak;
}

TEST(Explorer, InParallelHoldsTheConfigurationsOfThePathsOut) {
  const Program registry = registry_program(5);
  Explorer explorer({Reduction::kTransDpor, true, Heuristic::kFifo});
  const std::size_t peak = explore_in_random_order(registry, explorer, 3);
  EXPECT_TRUE(explorer.explored_completely());
  EXPECT_EQ(explorer.stats().paths, 720u);
  EXPECT_EQ(explorer.stats().transitions, 1966u);
  // Workers that ask while work is scarce take shallow configurations, whose subtrees stay in the
  // tree until explored: 130 of the 1,967 at most (23 when every item came from the deepest).
  EXPECT_EQ(peak, 130u);
  EXPECT_EQ(explorer.configurations(), 1u);
}

TEST(Explorer, InParallelGoesDepthFirstOnceWorkIsPlentiful) {
  // Of registry K=7's 109,615 configurations, the tree held 8,675 at once when every worker that
  // asked while another item was out took the shallowest choice, and 27 when every item came from
  // the deepest (kListedPerItemOutWhileScarce in tree_exploration.cpp set beyond any tree's size, and to 0).
  const Program registry = registry_program(7);
  Explorer explorer({Reduction::kTransDpor, true, Heuristic::kFifo});
  const std::size_t peak = explore_in_random_order(registry, explorer, 2);
  EXPECT_TRUE(explorer.explored_completely());
  EXPECT_EQ(explorer.stats().paths, 40320u);
  EXPECT_EQ(explorer.stats().transitions, 109614u);
  EXPECT_EQ(peak, 117u);
}

TEST(Explorer, AWorkerAskingWhileAnotherItemIsOutGetsTheShallowestOpenChoice) {
  const Program registry = registry_program(4);
  Explorer explorer({Reduction::kTransDpor, true, Heuristic::kFifo});
  auto first = explorer.next();
  explorer.complete(first->id, run(registry, *first));
  ASSERT_GE(explorer.frontier(), 2u);
  // Alone, depth first: Fig. 2's recursion goes on from the deepest configuration with a choice.
  const auto deepest = explorer.next();
  ASSERT_TRUE(deepest);
  // Another worker, asking while that one is out, gets a subtree far from it.
  const auto shallowest = explorer.next();
  ASSERT_TRUE(shallowest);
  EXPECT_EQ(deepest->prefix.size(), 8u);
  EXPECT_EQ(shallowest->prefix.size(), 1u);
}

// Exhaustive exploration knows every choice of a configuration when it first reaches it: the
// estimate of the share explored is exact for a tree whose subtrees are equal, and never goes down.
TEST(Explorer, TheShareExploredStartsAtZeroGrowsAndEndsAtOne) {
  const Program registry = registry_program(2);
  Explorer explorer({Reduction::kExhaustive, false, Heuristic::kFifo});
  auto first = explorer.next();
  EXPECT_EQ(explorer.explored_share(), 0.0);
  const Execution execution = run(registry, *first);
  explorer.complete(first->id, execution);
  // The first path: one of |enabled| choices at each of its configurations.
  double expected = 1.0;
  for (const Step& step : execution.steps) expected /= static_cast<double>(step.enabled.size());
  EXPECT_DOUBLE_EQ(explorer.explored_share(), expected);
  EXPECT_DOUBLE_EQ(expected, 1.0 / 24);  // 3 x 2 x 2 x 2 x 1 choices
  double last = explorer.explored_share();
  while (auto item = explorer.next()) {
    EXPECT_EQ(explorer.explored_share(), last);  // an item out explores nothing yet
    explorer.complete(item->id, run(registry, *item));
    EXPECT_GE(explorer.explored_share(), last);
    last = explorer.explored_share();
  }
  EXPECT_TRUE(explorer.explored_completely());
  EXPECT_EQ(explorer.explored_share(), 1.0);
}

// With races adding choices, several items out and results in any order, it stays an estimate
// between 0 and 1, and is 1 exactly when the tree is explored.
TEST(Explorer, TheShareExploredInParallelStaysBetweenZeroAndOne) {
  const Program registry = registry_program(4);
  Explorer explorer({Reduction::kTransDpor, true, Heuristic::kFifo});
  std::size_t results = 0, below_one = 0;
  explore_in_random_order(registry, explorer, 3, 3, [&] {
    const double share = explorer.explored_share();
    EXPECT_GE(share, 0.0);
    EXPECT_LE(share, 1.0);
    ++results;
    below_one += share < 1.0 ? 1 : 0;
  });
  EXPECT_TRUE(explorer.explored_completely());
  EXPECT_EQ(explorer.explored_share(), 1.0);
  EXPECT_EQ(below_one, results - 1);  // 1 only once the last result is in
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

// The explorer counts classes by class key: equal keys for the same per-actor sequences whatever
// the interleaving, different keys otherwise, and the key gives back the canonical form.
TEST(Explorer, ClassKeysAreEqualExactlyWhenCanonicalFormsAre) {
  const auto execution_of = [](std::vector<std::pair<std::string, std::string>> deliveries) {
    Execution execution;
    for (auto& [actor, message] : deliveries) {
      Step step;
      step.actor = actor;
      step.message = message;
      execution.steps.push_back(step);
    }
    return execution;
  };
  // "b" is interned before "a": key order and name order differ.
  const Execution one = execution_of({{"b", "m1"}, {"a", "m2"}, {"b", "m3"}});
  const Execution interleaved = execution_of({{"a", "m2"}, {"b", "m1"}, {"b", "m3"}});
  const Execution reordered = execution_of({{"b", "m3"}, {"a", "m2"}, {"b", "m1"}});
  Names names;
  const TraceView view_one(one, names), view_interleaved(interleaved, names), view_reordered(reordered, names);
  EXPECT_EQ(view_one.class_key(), view_interleaved.class_key());
  EXPECT_NE(view_one.class_key(), view_reordered.class_key());
  for (const Execution* execution : {&one, &interleaved, &reordered}) {
    const TraceView view(*execution, names);
    EXPECT_EQ(TraceView::canonical_form_of(view.class_key(), names), canonical_form(*execution));
  }
  EXPECT_EQ(canonical_form(one), "a:m2;b:m1,m3;");
  EXPECT_EQ(canonical_form(one), canonical_form(interleaved));
  EXPECT_NE(canonical_form(one), canonical_form(reordered));
}

// The explorer keeps one view for all its results: a view assigned another execution must answer
// exactly as a view made for that execution alone, nothing left over from the ones before.
TEST(TraceView, AViewAssignedAgainAnswersAsANewOne) {
  const Program registry = registry_program(3);
  Explorer explorer({Reduction::kExhaustive, false, Heuristic::kFifo});
  std::vector<Execution> executions;
  while (auto item = explorer.next()) {
    executions.push_back(run(registry, *item));
    explorer.complete(item->id, executions.back());
  }
  ASSERT_GT(executions.size(), 2u);
  executions.push_back(executions.front());  // after the others, whose steps are elsewhere

  Names names;
  TraceView reused;
  for (const Execution& execution : executions) {
    reused.assign(execution, names);
    const TraceView fresh(execution, names);
    ASSERT_EQ(reused.size(), fresh.size());
    EXPECT_EQ(reused.class_key(), fresh.class_key());
    EXPECT_EQ(reused.pending_at_end(), fresh.pending_at_end());
    for (std::size_t i = 0; i <= fresh.size(); ++i) {
      EXPECT_EQ(reused.step(i).message, fresh.step(i).message);
      for (std::size_t j = 0; j <= fresh.size(); ++j)
        EXPECT_EQ(reused.happens_before(i, j), fresh.happens_before(i, j));
    }
    for (Key key = 0; key < names.size(); ++key) {
      EXPECT_EQ(reused.send_step(key), fresh.send_step(key)) << names.name(key);
      for (std::size_t limit = 0; limit <= fresh.size(); ++limit) {
        EXPECT_EQ(reused.latest_dependent_step(key, limit), fresh.latest_dependent_step(key, limit))
            << names.name(key) << " up to step " << limit;
      }
    }
  }
}

}  // namespace
}  // namespace exocheck::engine::testing

namespace exocheck::engine::testing {
namespace {

// Actor "0" sends to "0.1" twice per message it gets; "0.1" sends once to "0.2"; "0.2" only receives.
Execution chain_execution() {
  Execution execution;
  execution.initial.created = {"0", "0.1", "0.2"};
  execution.initial.sent = {{"env#1", "0"}};
  Step first;
  first.actor = "0";
  first.message = "env#1";
  first.sent = {{"0#1", "0.1"}, {"0#2", "0.1"}};
  Step second;
  second.actor = "0.1";
  second.message = "0#1";
  second.sent = {{"0.1#1", "0.2"}};
  Step third;
  third.actor = "0.2";
  third.message = "0.1#1";
  execution.steps = {first, second, third};
  return execution;
}

TEST(History, HmsRanksActorsByMessagesSentPerMessageReceived) {
  History history;
  history.record(chain_execution());
  EXPECT_EQ(history.ranking(Heuristic::kHms), (std::vector<std::string>{"0", "0.1", "0.2"}));
  EXPECT_TRUE(history.ranking(Heuristic::kFifo).empty());
}

TEST(History, SgrRanksSendersBeforeWhomTheyReach) {
  History history;
  Execution execution = chain_execution();
  // Seen first: 0.2, then 0.1, then 0; reachability still puts 0 first.
  execution.initial.created = {"0.2", "0.1", "0"};
  history.record(execution);
  EXPECT_EQ(history.ranking(Heuristic::kSgr), (std::vector<std::string>{"0", "0.1", "0.2"}));
}

TEST(History, SgrBreaksTiesOfMutuallyReachableActorsByFirstSight) {
  History history;
  Execution execution = chain_execution();
  Step back;
  back.actor = "0.2";
  back.message = "0.1#2";
  back.sent = {{"0.2#1", "0"}};  // a cycle: everyone reaches everyone
  execution.steps.push_back(back);
  history.record(execution);
  EXPECT_EQ(history.ranking(Heuristic::kSgr), (std::vector<std::string>{"0", "0.1", "0.2"}));
}

// Keys sorted in place (short segments) and by std::stable_sort (long ones) keep each actor's
// deliveries in their order: three actors' 20 deliveries each, interleaved two ways, give one key.
TEST(Explorer, LongRunsInterleavedAlikeHaveOneClassKey) {
  Execution round_robin, blocks;
  const std::vector<std::string> actors{"c", "a", "b"};
  for (int i = 0; i < 20; ++i) {
    for (const auto& actor : actors) {
      Step step;
      step.actor = actor;
      step.message = actor + "#" + std::to_string(i);
      round_robin.steps.push_back(step);
    }
  }
  for (const auto& actor : actors) {
    for (int i = 0; i < 20; ++i) {
      Step step;
      step.actor = actor;
      step.message = actor + "#" + std::to_string(i);
      blocks.steps.push_back(step);
    }
  }
  Execution swapped = blocks;
  std::swap(swapped.steps[3], swapped.steps[4]);  // two of "c"'s deliveries in the other order
  Names names;
  const TraceView one(round_robin, names), other(blocks, names), third(swapped, names);
  EXPECT_EQ(one.class_key(), other.class_key());
  EXPECT_NE(one.class_key(), third.class_key());
  std::string key = "left over from another path";
  one.class_key(key);
  EXPECT_EQ(key, other.class_key());
  std::string form = "left over";
  TraceView::canonical_form_of(key, names, form);
  EXPECT_EQ(form, canonical_form(round_robin));
  EXPECT_EQ(form.substr(0, 14), "a:a#0,a#1,a#2,");
  EXPECT_NE(canonical_form(swapped), form);
}

}  // namespace
}  // namespace exocheck::engine::testing
