// `exocheck explore --reduction optimal` on the real subjects: one execution per class, the same
// classes as TransDPOR, bugs that replay, and no run spent on leader's guards (they have views).
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, OptimalRunsOneExecutionPerClassOfTheRegistryAndPi) {
  if (!built("registry") || !built("pi")) GTEST_SKIP() << "registry or pi not built";
  const auto registry = figures({"--reduction", "optimal", "--workers", "2"}, "registry", {"--workers=4"});
  EXPECT_EQ(registry.exit_code, 0) << registry.summary.dump(2);
  EXPECT_TRUE(registry.complete);
  EXPECT_EQ(registry.paths, 120u);
  EXPECT_EQ(registry.classes, 120u);
  EXPECT_EQ(registry.sleep_blocked, 0u);
  const auto pi = figures({"--reduction", "optimal"}, "pi", {"--workers=5"});
  EXPECT_EQ(pi.paths, 120u);
  EXPECT_EQ(pi.classes, 120u);
  EXPECT_EQ(pi.sleep_blocked, 0u);
}

// 29 classes, each once, and no blocked run: leader's guards have views, which the hook tests on
// each node's earlier states (with plain guards optimal spent 79 blocked runs here, transdpor 122).
TEST_F(ExploreTest, OptimalOnLeaderReachesTheClassesOnceAndSpendsNoRunOnGuards) {
  if (!built("leader")) GTEST_SKIP() << "leader not built";
  for (const std::string reduction : {"optimal", "transdpor"}) {
    const auto leader = figures({"--reduction", reduction}, "leader", {"--n=6"});
    EXPECT_EQ(leader.exit_code, 0) << leader.summary.dump(2);
    EXPECT_EQ(leader.paths, 29u) << reduction;
    EXPECT_EQ(leader.classes, 29u) << reduction;
    EXPECT_EQ(leader.sleep_blocked, 0u) << reduction;
  }
}

TEST_F(ExploreTest, OptimalFindsTheDiningPhilosophersDeadlockAndItReplays) {
  if (!built("diningphil")) GTEST_SKIP() << "diningphil not built";
  expect_bug_replays(figures({"--reduction", "optimal"}, "diningphil"), "RUN_DEADLOCK", {});
  const auto all = figures({"--reduction", "optimal", "--keep-going"}, "diningphil");
  EXPECT_EQ(all.classes, 7u);  // as transdpor
  EXPECT_EQ(all.paths, 7u);
}

}  // namespace
}  // namespace exocheck::explore_test
