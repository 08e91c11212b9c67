#include "scheduling_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>

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

  static proto::RunRequest request(proto::Heuristic heuristic, const std::vector<std::string>& ranking = {}) {
    proto::RunRequest request;
    request.set_heuristic(heuristic);
    for (const auto& actor : ranking) request.add_ranking(actor);
    return request;
  }
  std::size_t choose(proto::Heuristic heuristic, const std::vector<std::string>& ranking = {}) const {
    return SchedulingOrder(request(heuristic, ranking)).choose(enabled(), 1);
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
  EXPECT_EQ(SchedulingOrder(request(proto::LDM)).choose(tied, 1), 1u);
  EXPECT_EQ(SchedulingOrder(request(proto::HDM)).choose(tied, 1), 1u);
}

TEST_F(SchedulingOrderTest, ASingleEnabledMessageIsAlwaysChosen) {
  for (auto heuristic : {proto::FIFO, proto::LIFO, proto::ECA, proto::LCA, proto::LDM, proto::HDM, proto::RANKED,
                         proto::RANDOM_WALK, proto::PCT, proto::POS}) {
    EXPECT_EQ(SchedulingOrder(request(heuristic)).choose({to_a(9)}, 1), 0u);
  }
}

proto::RunRequest seeded(proto::Heuristic heuristic, std::uint64_t seed, std::uint32_t depth = 0,
                         std::uint32_t steps = 0) {
  proto::RunRequest request;
  request.set_heuristic(heuristic);
  request.set_seed(seed);
  request.set_pct_depth(depth);
  request.set_pct_steps(steps);
  return request;
}

// The choices of one run over `steps` steps, each from the six messages of enabled().
std::vector<std::size_t> choices(const proto::RunRequest& request, const std::vector<Candidate>& enabled,
                                 std::uint32_t steps) {
  SchedulingOrder order(request);
  std::vector<std::size_t> chosen;
  for (std::uint32_t step = 1; step <= steps; ++step) chosen.push_back(order.choose(enabled, step));
  return chosen;
}

TEST_F(SchedulingOrderTest, ARandomWalkIsItsSeedsAndChoosesEveryMessageAlike) {
  const auto walk = choices(seeded(proto::RANDOM_WALK, 42), enabled(), 6000);
  EXPECT_EQ(walk, choices(seeded(proto::RANDOM_WALK, 42), enabled(), 6000));
  EXPECT_NE(walk, choices(seeded(proto::RANDOM_WALK, 43), enabled(), 6000));
  // Each of the six about 1,000 times (a binomial's standard deviation is about 29): messages, not
  // actors, are what it draws from.
  std::vector<int> counts(6, 0);
  for (std::size_t i : walk) ++counts.at(i);
  for (int count : counts) EXPECT_NEAR(count, 1000, 150);
}

TEST_F(SchedulingOrderTest, PctWithoutChangePointsKeepsOneRandomPriorityOrder) {
  // Depth 1: no change point. The same messages enabled at every step get the same choice.
  const auto run = choices(seeded(proto::PCT, 7, 1, 100), enabled(), 50);
  EXPECT_EQ(std::count(run.begin(), run.end(), run.front()), 50);
  // Over seeds, the highest priority falls on each message about equally often.
  std::vector<int> counts(6, 0);
  for (std::uint64_t seed = 0; seed < 6000; ++seed)
    ++counts.at(choices(seeded(proto::PCT, seed, 1, 0), enabled(), 1)[0]);
  for (int count : counts) EXPECT_NEAR(count, 1000, 150);
}

TEST_F(SchedulingOrderTest, PctHoldsBackTheHighestMessageAtEachChangePoint) {
  // Depth 3 over 10 steps: two change points. At each, the message that would have gone is
  // lowered below every drawn priority, so the choice moves, and a lowered message is never chosen
  // again while others are enabled. A change point at step 1 lowers a message before any choice.
  int moved_twice = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const auto run = choices(seeded(proto::PCT, seed, 3, 10), enabled(), 10);
    std::vector<std::size_t> distinct;
    for (std::size_t i : run) {
      if (distinct.empty() || distinct.back() != i) distinct.push_back(i);
    }
    ASSERT_GE(distinct.size(), 2u) << "seed " << seed;
    ASSERT_LE(distinct.size(), 3u) << "seed " << seed;
    auto sorted = distinct;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end())
        << "seed " << seed << ": a lowered message came back";
    moved_twice += distinct.size() == 3 ? 1 : 0;
    EXPECT_EQ(run, choices(seeded(proto::PCT, seed, 3, 10), enabled(), 10));
  }
  // Without a change point at step 1 (probability 8/10 for two of ten steps) the choice moves twice.
  EXPECT_NEAR(moved_twice, 160, 25);
}

// POS redraws the priorities of the messages that race with a delivery: here, every message to the
// actor it went to. With the enabled set held, a delivery to one actor among six redraws only that
// message; with six messages to one actor, it redraws them all, and each step is a fresh draw.
TEST_F(SchedulingOrderTest, PosRedrawsWhatRacesWithADeliveryAndNothingElse) {
  const auto run = choices(seeded(proto::POS, 5), enabled(), 600);
  EXPECT_EQ(run, choices(seeded(proto::POS, 5), enabled(), 600));
  EXPECT_NE(run, choices(seeded(proto::POS, 6), enabled(), 600));
  const std::string one = "A";
  std::vector<Candidate> to_one, to_six;
  std::vector<std::string> six{"0", "1", "2", "3", "4", "5"};
  for (std::uint32_t i = 0; i < 6; ++i) {
    to_one.push_back({i + 1, 0, 1, &one});
    to_six.push_back({i + 1, i, i + 1, &six[i]});
  }
  const auto fresh = choices(seeded(proto::POS, 11), to_one, 6000);
  std::vector<int> counts(6, 0);
  int repeats = 0;
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    ++counts.at(fresh[i]);
    repeats += i > 0 && fresh[i] == fresh[i - 1] ? 1 : 0;
  }
  for (int count : counts) EXPECT_NEAR(count, 1000, 150);
  EXPECT_NEAR(repeats, 1000, 150);  // each step independent of the last: 1 in 6
  // Six actors: a message that lost keeps its priority, and only the one delivered draws again. A
  // high kept priority is soon delivered and drawn anew, so the kept ones sink, and a fresh draw
  // beats them nearly always: the same message again and again (were they all drawn again at every
  // step, 1 in 6).
  const auto kept = choices(seeded(proto::POS, 11), to_six, 6000);
  int kept_repeats = 0;
  for (std::size_t i = 1; i < kept.size(); ++i) kept_repeats += kept[i] == kept[i - 1] ? 1 : 0;
  EXPECT_GT(kept_repeats, 5000);
}

TEST(SchedulingOrder, RejectsAnUnknownHeuristic) {
  proto::RunRequest request;
  request.set_heuristic(static_cast<proto::Heuristic>(42));
  EXPECT_THROW(SchedulingOrder{request}, std::invalid_argument);
}

}  // namespace
}  // namespace exocheck::detail
