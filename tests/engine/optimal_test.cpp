// Optimal DPOR (engine/src/optimal_exploration.cpp, wakeup_tree.cpp): on random programs with
// guards, replies, creation and destruction, it reaches every class exhaustive exploration
// reaches, each with exactly one execution; the only runs it wastes are those a guard cut short
// at a tentative wakeup entry, counted here.
#include <gtest/gtest.h>

#include <cstdio>

#include "differential.hpp"
#include "paper_programs.hpp"
#include "program_generator.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr int kPrograms = 1000;

ExplorerOptions optimal(Heuristic heuristic = Heuristic::kFifo) {
  ExplorerOptions options;
  options.reduction = Reduction::kOptimal;
  options.heuristic = heuristic;
  return options;
}

TEST(Optimal, ReachesEveryClassExhaustiveReachesOnceEach) {
  int programs = 0;
  std::uint64_t blocked = 0;
  std::uint64_t paths = 0;
  int programs_with_blocked = 0;
  for (std::uint64_t seed = 1; programs < kPrograms; ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    const auto options = optimal(kHeuristics[seed % 6]);  // HMS and SGR rank actors: any order does
    // Every run without the steps the explorer holds, as agents send them (WorkItem::steps_held).
    const Reached reached = explore(program, options, Results::kWithoutPrefix);
    const std::string what = describe(seed, options);
    expect_same_reach(reference, reached, what);
    EXPECT_EQ(reached.stats.paths, reached.stats.classes) << what << ": an execution repeated a class";
    EXPECT_EQ(reached.stats.classes, reference.stats.classes) << what;
    blocked += reached.stats.sleep_blocked;
    paths += reached.stats.paths;
    programs_with_blocked += reached.stats.sleep_blocked != 0 ? 1 : 0;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms);
  std::printf("optimal: %d programs, %llu executions, %llu cut short by a guard (in %d programs)\n", programs,
              static_cast<unsigned long long>(paths), static_cast<unsigned long long>(blocked), programs_with_blocked);
}

// Other programs, explored one run at a time (each class once), with results in random orders
// from several workers, and by explorers that give subtrees (with their wakeup trees) to one
// another and send races above their roots back as requests: the same classes. Side by side, a
// few classes are reached twice (counted).
TEST(Optimal, InParallelAndInSubtreesReachesEveryClass) {
  int programs = 0;
  int split_explorations = 0;
  std::uint64_t blocked = 0;
  std::uint64_t paths = 0;
  std::uint64_t repeated = 0;
  for (std::uint64_t seed = 30001; programs < kPrograms / 2; ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    const auto options = optimal(kHeuristics[seed % 6]);
    const Reached sequential = explore(program, options);
    expect_same_reach(reference, sequential, describe(seed, options));
    EXPECT_EQ(sequential.stats.paths, reference.stats.classes) << describe(seed, options);
    int split = 0;
    const Reached parallel =
        explore_in_parallel(program, options, 2 + static_cast<int>(seed % 7), seed, Results::kWithoutPrefix);
    const Reached subtrees = explore_in_subtrees(program, options, 2 + static_cast<int>(seed % 3) * 3, seed, &split);
    split_explorations += split > 0 ? 1 : 0;
    for (const auto& [reached, how] : {std::pair{&parallel, "in parallel"}, std::pair{&subtrees, "in subtrees"}}) {
      const std::string what = describe(seed, options) + ", " + how + ", " + std::to_string(split) + " splits";
      expect_same_reach(reference, *reached, what);
      EXPECT_EQ(reached->stats.classes, reference.stats.classes) << what;
      blocked += reached->stats.sleep_blocked;
      paths += reached->stats.paths;
      repeated += reached->stats.paths - reached->stats.classes;
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms / 2);
  // The simulation must split to mean anything; subtrees go only from configurations no choice
  // under way can send sequences to.
  EXPECT_GT(split_explorations, programs / 3);
  EXPECT_LT(repeated * 10, paths);  // 2 to 8 workers on programs of a few classes each
  std::printf(
      "optimal in parallel and in subtrees: %d programs (%d split), %llu executions, %llu repeating a "
      "class, %llu cut short\n",
      programs, split_explorations, static_cast<unsigned long long>(paths), static_cast<unsigned long long>(repeated),
      static_cast<unsigned long long>(blocked));
}

TEST(Optimal, PaperProgramsTakeOneExecutionPerClass) {
  for (int workers : {2, 3, 4}) {
    const Reached reached = explore(registry_program(workers), optimal());
    const Reached all = explore(registry_program(workers), {Reduction::kExhaustive, false, Heuristic::kFifo});
    EXPECT_EQ(reached.classes, all.classes) << "registry " << workers;
    EXPECT_EQ(reached.stats.paths, all.stats.classes) << "registry " << workers;
    EXPECT_EQ(reached.stats.sleep_blocked, 0u) << "registry " << workers;
  }
  const Reached pi = explore(pi_program(3), optimal());
  const Reached pi_all = explore(pi_program(3), {Reduction::kExhaustive, false, Heuristic::kFifo});
  EXPECT_EQ(pi.classes, pi_all.classes);
  EXPECT_EQ(pi.stats.paths, pi_all.stats.classes);
  EXPECT_EQ(pi.stats.sleep_blocked, 0u);
}

WakeupEvent to(Key message, Key receiver, Key sender = kNoKey) {
  return {message, receiver, sender, false};
}

TEST(WakeupTree, InitialsRespectReceiversAndSenders) {
  // m1 -> a, m2 -> b, m3 -> a (sent by m2's handler)
  const WakeupSequence w{to(1, 10), to(2, 11), to(3, 10, 2)};
  EXPECT_EQ(initial_position(w, to(1, 10)), 0u);
  EXPECT_EQ(initial_position(w, to(2, 11)), 1u);
  EXPECT_FALSE(initial_position(w, to(3, 10)));  // after m1 at a, and sent by m2
  EXPECT_TRUE(weak_initial(w, to(4, 12)));       // absent, independent of all
  EXPECT_FALSE(weak_initial(w, to(4, 10)));      // absent, but a receives in w
}

TEST(WakeupTree, ASequenceCoveredByALeafIsNotInsertedAndOthersBranchOff) {
  WakeupTree tree;
  tree.insert({to(1, 10), to(2, 11)});
  EXPECT_EQ(tree.branches(), 1u);
  tree.insert({to(2, 11), to(1, 10)});  // the same class: covered
  EXPECT_EQ(tree.branches(), 1u);
  EXPECT_EQ(tree.leftmost().size(), 2u);
  EXPECT_EQ(tree.events(), 2u);
  tree.insert({to(1, 10), to(3, 11)});  // shares m1, then parts
  EXPECT_EQ(tree.branches(), 1u);
  EXPECT_EQ(tree.events(), 3u);
  tree.insert({to(5, 12), to(6, 10)});  // m1 is no weak initial (a receives 6): a new branch
  EXPECT_EQ(tree.branches(), 2u);
  EXPECT_EQ(tree.events(), 5u);
  auto [first, rest] = tree.take_first();
  EXPECT_EQ(first.message, 1u);
  EXPECT_EQ(rest.branches(), 2u);  // 2 and 3 after 1
  EXPECT_EQ(rest.events(), 2u);
  EXPECT_EQ(tree.events(), 2u);
  EXPECT_EQ(tree.leftmost().front().message, 5u);
}

TEST(WakeupTree, ATentativeEventCoversOnlySequencesThatDeliverIt) {
  WakeupTree tree;
  WakeupEvent held = to(1, 10);
  held.tentative = true;
  tree.insert({held});
  tree.insert({to(2, 11)});  // independent of 1, but 1 may be held back: not covered by it
  EXPECT_EQ(tree.branches(), 2u);
  tree.insert({to(1, 10), to(3, 12)});  // delivers 1 first: under it (a leaf covers it)
  EXPECT_EQ(tree.branches(), 2u);
}

// A delivery's alternative label, a branch of its own, is no race's reversal: a sequence that goes
// below it is kept there, and covers later ones once it ends there (wakeup_tree.hpp, Branch::bare).
TEST(WakeupTree, AnAlternativesLeafCoversNoSequenceBelowIt) {
  WakeupTree tree;
  WakeupEvent label = to(1, 10);
  label.chosen = true;
  EXPECT_TRUE(tree.add_branch(label));
  tree.insert_below(label, {to(2, 10)});
  EXPECT_EQ(tree.leftmost().size(), 2u);  // m1's label, then m2
  WakeupTree leaf;
  leaf.insert({label});  // a race's sequence ends at the label: a leaf like any other
  leaf.insert_below(label, {to(2, 10)});
  EXPECT_EQ(leaf.leftmost().size(), 1u);
}

}  // namespace
}  // namespace exocheck::engine::testing
