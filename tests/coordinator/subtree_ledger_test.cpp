// The coordinator's book of subtree leases: what waits, whom to ask for a split, where a
// backtrack request goes, and when everything is finished. (Its rules also drive the engine's
// differential test of subtrees, tests/engine/subtree_test.cpp.)
#include "exocheck/coordinator/subtree_ledger.hpp"

#include <gtest/gtest.h>

namespace exocheck::coordinator::testing {
namespace {

engine::Subtree subtree(std::uint64_t id, std::vector<std::string> prefix) {
  engine::Subtree given;
  given.id = id;
  given.prefix = std::move(prefix);
  return given;
}

TEST(SubtreeLedger, TheWholeTreeWaitsFirstThenWhatIsSplitOffInTurn) {
  SubtreeLedger ledger;
  const auto whole = ledger.take(7);
  ASSERT_TRUE(whole);
  EXPECT_TRUE(whole->subtree.prefix.empty());
  EXPECT_EQ(ledger.worker_of(whole->lease), 7u);
  EXPECT_FALSE(ledger.take(8));

  // The only lease out is asked once, until it answers.
  EXPECT_EQ(ledger.lease_to_split(), whole->lease);
  EXPECT_FALSE(ledger.lease_to_split());
  ledger.nothing_to_split(whole->lease);
  EXPECT_EQ(ledger.lease_to_split(), whole->lease);
  const auto a = ledger.split_off(whole->lease, subtree(3, {"env#2"}));
  const auto b = ledger.split_off(whole->lease, subtree(4, {"env#1", "0#1"}));
  EXPECT_EQ(ledger.waiting(), 2u);
  EXPECT_EQ(ledger.take(8)->lease, a);
  EXPECT_EQ(ledger.take(9)->lease, b);

  // The shallowest lease being explored is asked first: it holds the most work.
  EXPECT_EQ(ledger.lease_to_split(), whole->lease);
  EXPECT_EQ(ledger.lease_to_split(), a);
  EXPECT_EQ(ledger.lease_to_split(), b);
}

TEST(SubtreeLedger, ARequestGoesToTheLeaseWithTheLongestPrefixOfItsConfiguration) {
  SubtreeLedger ledger;
  const auto whole = ledger.take(1)->lease;
  const auto a = ledger.split_off(whole, subtree(3, {"env#2"}));
  const auto b = ledger.split_off(a, subtree(5, {"env#2", "0#1"}));
  ledger.take(2);
  ledger.take(3);
  EXPECT_EQ(ledger.owner_of({}), whole);
  EXPECT_EQ(ledger.owner_of({"env#1", "0#1"}), whole);
  EXPECT_EQ(ledger.owner_of({"env#2"}), a);
  EXPECT_EQ(ledger.owner_of({"env#2", "0#2"}), a);
  EXPECT_EQ(ledger.owner_of({"env#2", "0#1", "1#1"}), b);
  ledger.finish(b);
  EXPECT_EQ(ledger.owner_of({"env#2", "0#1", "1#1"}), a);  // a finished lease owns nothing
}

TEST(SubtreeLedger, AFinishedLeaseNamesItsGiverAndTheExplorationEndsWithTheLast) {
  SubtreeLedger ledger;
  const auto whole = ledger.take(1)->lease;
  const auto a = ledger.split_off(whole, subtree(3, {"env#2"}));
  ledger.take(2);
  const auto giver = ledger.finish(a);
  ASSERT_TRUE(giver);
  EXPECT_EQ(giver->lease, whole);
  EXPECT_EQ(giver->subtree_id, 3u);
  EXPECT_FALSE(ledger.finished());
  EXPECT_FALSE(ledger.finish(whole));  // the whole tree has no giver
  EXPECT_TRUE(ledger.finished());
  EXPECT_THROW(ledger.finish(whole), std::logic_error);
}

TEST(SubtreeLedger, ALostWorkersLeasesWaitAgainAndWhatTheyGaveAwayIsVoid) {
  SubtreeLedger ledger;
  const auto whole = ledger.take(1)->lease;
  const auto a = ledger.split_off(whole, subtree(3, {"env#2"}));
  const auto b = ledger.split_off(whole, subtree(4, {"env#3"}));
  ledger.take(2);  // a
  const auto c = ledger.split_off(a, subtree(1, {"env#2", "0#1"}));
  ledger.take(3);  // b
  engine::Stats explored;
  explored.paths = 4;
  ledger.count(b, explored, {{1, 1}}, {{"deadlock", {3, {{1, 1}}}}});
  ledger.finish(b);
  EXPECT_EQ(ledger.stats().paths, 4u);
  EXPECT_EQ(ledger.bugs().at("deadlock").paths, 3u);

  // Worker 1 (the whole tree) is gone: every other lease lay under it.
  const auto released = ledger.release(1);
  EXPECT_EQ(released.waiting, std::vector<std::uint64_t>{whole});
  ASSERT_EQ(released.dropped.size(), 2u);
  EXPECT_EQ(released.dropped[0].first, a);
  EXPECT_EQ(released.dropped[0].second, 2u);
  EXPECT_EQ(released.dropped[1].first, c);
  EXPECT_EQ(released.dropped[1].second, std::nullopt) << "c waited: nobody to tell";
  EXPECT_EQ(ledger.waiting(), 1u) << "c no longer waits";
  EXPECT_EQ(ledger.stats().paths, 0u) << "b's paths are taken back, to be explored again";
  EXPECT_EQ(ledger.stats().classes, 1u) << "its classes stay";
  EXPECT_EQ(ledger.bugs().at("deadlock").paths, 0u) << "so are its failing paths";
  EXPECT_EQ(ledger.bugs().at("deadlock").classes.size(), 1u) << "and its failing classes stay";
  EXPECT_FALSE(ledger.worker_of(a));
  EXPECT_EQ(ledger.owner_of({"env#2", "0#1"}), whole);
  const auto again = ledger.take(4);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->lease, whole);
  EXPECT_EQ(ledger.out(), 1u);
  EXPECT_FALSE(ledger.finish(whole));
  EXPECT_TRUE(ledger.finished());
}

TEST(SubtreeLedger, WhatIsFinishedIsFoldedIntoItsGiverAndHeldNoLonger) {
  SubtreeLedger ledger;
  const auto whole = ledger.take(1)->lease;
  engine::Stats explored;
  explored.paths = 2;
  explored.classes = 2;
  // A thousand gifts of the whole tree explored and finished: the book holds the whole tree only.
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const auto gift = ledger.split_off(whole, subtree(i, {"env#" + std::to_string(i)}));
    ledger.take(2);
    ledger.count(gift, explored, {}, {{"deadlock", {1, {}, 1}}});
    const auto giver = ledger.finish(gift);
    ASSERT_TRUE(giver);
    EXPECT_EQ(giver->subtree_id, i);
  }
  EXPECT_EQ(ledger.held_leases(), 1u);
  EXPECT_EQ(ledger.stats().paths, 2000u);
  EXPECT_EQ(ledger.stats().classes, 2000u);
  EXPECT_EQ(ledger.bugs().at("deadlock").paths, 1000u);
  EXPECT_EQ(ledger.finished_children(whole).size(), 1000u) << "its explorer may come back without the notices";

  // A gift's gift is folded into it, then it into the whole tree, as each is finished.
  const auto a = ledger.split_off(whole, subtree(2000, {"env#a"}));
  ledger.take(3);
  const auto b = ledger.split_off(a, subtree(1, {"env#a", "0#1"}));
  ledger.take(4);
  EXPECT_EQ(ledger.held_leases(), 3u);
  ledger.count(b, explored, {});
  EXPECT_EQ(ledger.finish(b)->lease, a);
  EXPECT_EQ(ledger.held_leases(), 2u);
  EXPECT_EQ(ledger.finished_children(a).size(), 1u);
  ledger.count(a, explored, {});
  EXPECT_EQ(ledger.finish(a)->lease, whole);
  EXPECT_EQ(ledger.held_leases(), 1u);
  EXPECT_EQ(ledger.stats().paths, 2004u);
  EXPECT_EQ(ledger.finished_children(whole).size(), 1001u);

  // A finished gift whose own gift is not finished stays, and goes with its gift.
  const auto c = ledger.split_off(whole, subtree(3000, {"env#c"}));
  ledger.take(3);
  const auto d = ledger.split_off(c, subtree(1, {"env#c", "0#1"}));
  ledger.take(4);
  ledger.count(c, explored, {});
  ledger.finish(c);
  EXPECT_EQ(ledger.held_leases(), 3u);
  ledger.count(d, explored, {});
  EXPECT_FALSE(ledger.finish(d)) << "c is finished: nobody to tell";
  EXPECT_EQ(ledger.held_leases(), 1u);
  EXPECT_EQ(ledger.stats().paths, 2008u);

  // The whole tree's worker is gone: every folded gift is taken back, the classes counted too.
  const auto released = ledger.release(1);
  EXPECT_EQ(released.waiting, std::vector<std::uint64_t>{whole});
  EXPECT_EQ(ledger.stats().paths, 0u);
  EXPECT_EQ(ledger.stats().classes, 0u);
  EXPECT_EQ(ledger.bugs().at("deadlock").paths, 0u);
  EXPECT_EQ(ledger.bugs().at("deadlock").counted_classes, 0u);
  EXPECT_TRUE(ledger.finished_children(whole).empty());
  ledger.take(5);
  EXPECT_FALSE(ledger.finish(whole));
  EXPECT_TRUE(ledger.finished());
}

TEST(SubtreeLedger, ClassesAreCountedOnceAcrossWorkers) {
  SubtreeLedger ledger;
  engine::Stats first;
  first.paths = 3;
  first.classes = 3;
  engine::Stats second;
  second.paths = 2;
  second.classes = 2;
  const engine::ClassKey x{1, 2};
  const engine::ClassKey y{3, 4};
  const engine::ClassKey z{5, 6};
  ledger.count(1, first, {x, y, z});
  ledger.count(1, second, {y, z});
  EXPECT_EQ(ledger.stats().paths, 5u);
  EXPECT_EQ(ledger.stats().classes, 3u);
  EXPECT_DOUBLE_EQ(ledger.stats().redundancy(), 5.0 / 3.0);
}

}  // namespace
}  // namespace exocheck::coordinator::testing
