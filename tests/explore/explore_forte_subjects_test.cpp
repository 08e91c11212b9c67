// The TransDPOR paper's pipesort, leader, regsim and regsim-2-level subjects through `exocheck
// explore`: each explored completely with no bug, and the same classes under TransDPOR as under
// exhaustive exploration (both with sleep sets).

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

using ExploreForteSubjects = ExploreTest;

TEST_F(ExploreForteSubjects, PipesortStagesHoldTheValuesInOrderOnEveryPath) {
  // Stage i takes its 4 - i values in any order: 4! 3! 2! 1! classes, the paper's 288.
  expect_correct("pipesort", {"--n", "4"}, 288);
}

TEST_F(ExploreForteSubjects, LeaderElectionElectsExactlyOneLeaderOnEveryPath) {
  // Guards fix every active node's receive order; only what relays forward varies.
  expect_correct("leader", {"--n", "4"}, 5);
  expect_correct("leader", {"--n", "6"}, 29);
}

TEST_F(ExploreForteSubjects, RegsimRegistersEveryClientOnceOnEveryPath) {
  // 3! orders at the registrar, 6!/2^3 at the server (each request after its registration).
  expect_correct("regsim", {"--clients", "3"}, 540);
}

TEST_F(ExploreForteSubjects, RegsimTwoLevelRegistersEveryClientOnceOnEveryPath) {
  // 2! at the first local registrar, 3! at the top one, 90 at the server.
  expect_correct("regsim-2-level", {"--clients", "3", "--registrars", "2"}, 1080);
}

TEST_F(ExploreForteSubjects, RegsimWithLcaNeedsOnePathPerClassEvenWithoutSleepSets) {
  if (!built("regsim")) GTEST_SKIP() << "regsim not built";
  for (const char* reduction : {"dpor", "transdpor"}) {
    const auto result = figures({"--workers", "2", "--reduction", reduction, "--heuristic", "lca", "--no-sleep-sets"},
                                "regsim", {"--clients", "3"});
    EXPECT_EQ(result.exit_code, 0) << reduction << "\n" << result.summary.dump(2);
    EXPECT_EQ(result.paths, 540u) << reduction;
    EXPECT_EQ(result.classes, 540u) << reduction;
  }
}

}  // namespace
}  // namespace exocheck::explore_test
