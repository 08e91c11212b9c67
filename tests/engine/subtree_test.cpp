// Subtrees split off one explorer and explored by others (Explorer::split, backtrack requests):
// the contract between a giver and the explorer of its subtree, and soundness checked
// differentially: every class exhaustive exploration reaches is reached.
#include <gtest/gtest.h>

#include <set>

#include "differential.hpp"
#include "exocheck/engine/explorer.hpp"
#include "exploration.hpp"
#include "paper_programs.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

TEST(Subtree, AGiverKeepsItsSplitConfigurationUntilTheSubtreeIsFinished) {
  const Program registry = registry_program();
  const ExplorerOptions options{Reduction::kDpor, false, Heuristic::kFifo};
  Explorer giver(options);
  EXPECT_FALSE(giver.split());  // nothing is known before the first run returns
  auto first = giver.next();
  ASSERT_TRUE(first);
  giver.complete(first->id, run_item(registry, *first));
  auto subtree = giver.split();
  ASSERT_TRUE(subtree);
  EXPECT_FALSE(subtree->prefix.empty());

  // The subtree's first item runs exactly its prefix; its explorer explores it to the end.
  Explorer taker(options, *subtree);
  auto start = taker.next();
  ASSERT_TRUE(start);
  EXPECT_EQ(start->prefix, subtree->prefix);
  EXPECT_TRUE(start->whole);  // the taker holds no step above its root yet
  std::vector<BacktrackRequest> requests;
  const std::uint64_t first_id = start->id;
  for (auto item = std::move(start); item; item = taker.next()) {
    if (item->id != first_id) {
      EXPECT_FALSE(item->whole);
    }
    taker.complete(item->id, run_item(registry, *item));
    for (auto& request : taker.take_backtrack_requests()) requests.push_back(std::move(request));
  }
  EXPECT_TRUE(taker.finished());

  // The giver explores the rest; it is not finished while the subtree is out, and every request
  // names a configuration it holds.
  for (const auto& request : requests) EXPECT_TRUE(giver.request_backtrack(request));
  while (auto item = giver.next()) giver.complete(item->id, run_item(registry, *item));
  EXPECT_FALSE(giver.finished());
  giver.subtree_finished(subtree->id);
  EXPECT_TRUE(giver.finished());
  EXPECT_TRUE(giver.explored_completely());

  // Together they reach the registry's 6 classes, in DPOR's 24 paths.
  auto classes = giver.classes();
  const auto taken = taker.classes();
  classes.insert(taken.begin(), taken.end());
  EXPECT_EQ(classes.size(), 6u);
  EXPECT_EQ(giver.stats().paths + taker.stats().paths, 24u);
}

TEST(Subtree, ARequestForAConfigurationOutsideTheExplorerChangesNothing) {
  Subtree subtree;
  subtree.id = 1;
  subtree.prefix = {"0#1", "0#2"};
  Explorer explorer({Reduction::kDpor, false, Heuristic::kFifo}, subtree);
  BacktrackRequest request;
  request.prefix = {"0#2"};
  request.message = "0#1";
  request.taken = "0#2";
  request.dpor_set = {"0#1"};
  request.minimal = "0#1";
  EXPECT_FALSE(explorer.request_backtrack(request));
  request.prefix = {"0#1", "0#2", "1#1"};  // below the root, but no run went there yet
  EXPECT_FALSE(explorer.request_backtrack(request));
}

TEST(Subtree, PaperFiguresHoldWhenSubtreesAreSplitOff) {
  // The registry (TransDPOR Fig. 1): its 6 classes with every reduction, however it is split.
  for (Reduction reduction : {Reduction::kExhaustive, Reduction::kDpor, Reduction::kTransDpor}) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      const Reached reached =
          explore_in_subtrees(registry_program(), {reduction, seed % 2 == 0, Heuristic::kFifo}, 4, seed);
      EXPECT_EQ(reached.classes.size(), 6u) << name_of(reduction) << ", seed " << seed;
    }
  }
}

// Splitting adds no path: the explored subtrees partition the tree, and each choice is explored by
// its configuration's owner only, so 8 explorers explore exactly one explorer's paths on the
// papers' programs (issue 21 asks redundancy of at most 1.05 of the whole system).
TEST(Subtree, EightExplorersExploreExactlyTheRunsOfOne) {
  struct Case {
    const char* name;
    Program program;
    ExplorerOptions options;
    std::uint64_t paths;
    std::size_t classes;
  };
  const Case cases[] = {
      {"registry K=5, transdpor + sleep sets",
       registry_program(5),
       {Reduction::kTransDpor, true, Heuristic::kFifo},
       720,
       720},
      {"pi 5, dpor, lca", pi_program(5), {Reduction::kDpor, false, Heuristic::kLca}, 19845, 120},
      {"pi 5, transdpor, lca", pi_program(5), {Reduction::kTransDpor, false, Heuristic::kLca}, 945, 120},
      {"pi 5, transdpor + sleep sets, lca", pi_program(5), {Reduction::kTransDpor, true, Heuristic::kLca}, 120, 120},
  };
  for (const auto& c : cases) {
    int splits = 0;
    const Reached reached = explore_in_subtrees(c.program, c.options, 8, 7, &splits);
    EXPECT_EQ(reached.stats.paths, c.paths) << c.name;
    EXPECT_EQ(reached.classes.size(), c.classes) << c.name;
    EXPECT_EQ(reached.stats.classes, c.classes) << c.name;  // the ledger's count of distinct keys
    EXPECT_GT(splits, 10) << c.name;
    std::printf("%s: %llu paths, %zu classes, %d subtrees split off\n", c.name,
                static_cast<unsigned long long>(reached.stats.paths), reached.classes.size(), splits);
  }
}

// Explorers count classes by their keys: two classes sharing a key would be counted once.
TEST(ClassKey, EveryClassOfRegistryK7HasAKeyOfItsOwn) {
  const Reached reached = explore(registry_program(7), {Reduction::kTransDpor, true, Heuristic::kFifo});
  EXPECT_EQ(reached.stats.classes, 40320u);  // 8!: the registrations' orders
  EXPECT_EQ(reached.class_keys.size(), 40320u);
}

TEST(ClassKey, EqualFormsHaveEqualKeysAndAnyChangeMakesAnother) {
  const std::string form = "0:env#1,1#1;1:0#1;";
  EXPECT_EQ(class_key_of(form), class_key_of(std::string(form)));
  EXPECT_NE(class_key_of(form), class_key_of("0:env#1,1#1;1:0#2;"));
  EXPECT_NE(class_key_of(form), class_key_of("0:1#1,env#1;1:0#1;"));
  EXPECT_NE(class_key_of(""), class_key_of(std::string(1, '\0')));
}

constexpr int kPrograms = 1000;

TEST(Differential, SubtreesSplitAtRandomReachWhatExhaustiveReaches) {
  int programs = 0;
  long splits = 0;
  int explorations = 0;
  int split_explorations = 0;
  for (std::uint64_t seed = 20001; programs < kPrograms; ++seed) {
    const Program program = generate_program(seed);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    const std::set<ClassKey>& reference_keys = reference.class_keys;
    for (Reduction reduction : {Reduction::kExhaustive, Reduction::kDpor, Reduction::kTransDpor}) {
      const ExplorerOptions options{reduction, (seed + static_cast<int>(reduction)) % 2 == 0, kHeuristics[seed % 8]};
      for (int explorers : {2, 8}) {
        int split = 0;
        const Reached reached = explore_in_subtrees(program, options, explorers, seed * 7 + explorers, &split);
        splits += split;
        ++explorations;
        split_explorations += split > 0;
        const std::string what = describe(seed, options) + ", " + std::to_string(explorers) + " explorers, " +
                                 std::to_string(split) + " splits";
        expect_same_reach(reference, reached, what);
        EXPECT_EQ(reached.class_keys, reference_keys) << what;
        EXPECT_EQ(reached.stats.classes, reference_keys.size()) << what;
      }
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms);
  // The simulation must split for the test to mean anything.
  EXPECT_GT(split_explorations, explorations / 2);
  std::printf("programs %d, explorations %d, of them split %d, subtrees split off %ld\n", programs, explorations,
              split_explorations, splits);
}

}  // namespace
}  // namespace exocheck::engine::testing
