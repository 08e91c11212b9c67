#include "scheduling_order.hpp"

#include <gtest/gtest.h>

namespace exocheck::detail {
namespace {

// A hand-built configuration: actors A, B, C (created in the order A, C, B) with enabled
// messages, in send order: s1->B, s2->C, s3->A, s4->B, s5->C, s6->C.
// So A has 1 message, B 2, C 3; earliest sends: B 1, C 2, A 3; latest: A 3, B 4, C 6.
class SchedulingOrderTest : public ::testing::Test {
 protected:
  const std::string a = "A", b = "B", c = "C";
  Candidate to_a(std::uint64_t seq) const { return {seq, 0, 1, &a}; }
  Candidate to_b(std::uint64_t seq) const { return {seq, 1, 3, &b}; }
  Candidate to_c(std::uint64_t seq) const { return {seq, 2, 2, &c}; }
  std::vector<Candidate> enabled() const { return {to_b(1), to_c(2), to_a(3), to_b(4), to_c(5), to_c(6)}; }

  std::size_t choose(proto::Heuristic heuristic, std::vector<std::string> ranking = {}) const {
    return SchedulingOrder(heuristic, ranking).choose(enabled());
  }
};

TEST_F(SchedulingOrderTest, FifoPicksTheActorWhoseEarliestMessageWasSentFirst) {
  EXPECT_EQ(choose(proto::FIFO), 0u);  // B's s1
}

TEST_F(SchedulingOrderTest, LifoPicksTheActorWhoseLatestMessageWasSentLastThenItsEarliestMessage) {
  EXPECT_EQ(choose(proto::LIFO), 1u);  // C (latest s6), delivering its first message s2
}

TEST_F(SchedulingOrderTest, EcaPicksTheEarliestCreatedActor) {
  EXPECT_EQ(choose(proto::ECA), 2u);
}  // A

TEST_F(SchedulingOrderTest, LcaPicksTheLatestCreatedActor) {
  EXPECT_EQ(choose(proto::LCA), 0u);
}  // B

TEST_F(SchedulingOrderTest, LdmPicksTheActorWithFewestEnabledMessages) {
  EXPECT_EQ(choose(proto::LDM), 2u);
}  // A

TEST_F(SchedulingOrderTest, HdmPicksTheActorWithMostEnabledMessages) {
  EXPECT_EQ(choose(proto::HDM), 1u);
}  // C

TEST_F(SchedulingOrderTest, RankedFollowsTheRankingThenCreationOrder) {
  EXPECT_EQ(choose(proto::RANKED, {"C", "A"}), 1u);
  EXPECT_EQ(choose(proto::RANKED, {"nobody"}), 2u);  // unranked: by creation, A first
}

TEST_F(SchedulingOrderTest, TiesAreBrokenByCreationOrder) {
  // B and C both have two messages: LDM and HDM tie, and the earlier created C wins.
  const std::vector<Candidate> tied = {to_b(1), to_c(2), to_b(3), to_c(4)};
  EXPECT_EQ(SchedulingOrder(proto::LDM, {}).choose(tied), 1u);
  EXPECT_EQ(SchedulingOrder(proto::HDM, {}).choose(tied), 1u);
}

TEST_F(SchedulingOrderTest, ASingleEnabledMessageIsAlwaysChosen) {
  for (auto heuristic : {proto::FIFO, proto::LIFO, proto::ECA, proto::LCA, proto::LDM, proto::HDM, proto::RANKED}) {
    EXPECT_EQ(SchedulingOrder(heuristic, {}).choose({to_a(9)}), 0u);
  }
}

TEST(SchedulingOrder, RejectsAnUnknownHeuristic) {
  EXPECT_THROW(SchedulingOrder(static_cast<proto::Heuristic>(42), {}), std::invalid_argument);
}

}  // namespace
}  // namespace exocheck::detail
