// The subject suite (SUBJECTS.md) through `exocheck explore`: each subject, with a small
// parameter, explored completely, with its expected finding; correct subjects also reach the
// same classes under TransDPOR as under exhaustive exploration (both with sleep sets).

#include "exocheck/wire/trace_file.hpp"
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

using ExploreSubjects = ExploreTest;

TEST_F(ExploreSubjects, FibComputesFibOfFiveOnEveryPath) {
  // fib(5): 4 actors sum two answers each, in either order: 2^4 classes.
  expect_correct("fib", {"--n", "5"}, 16);
}

TEST_F(ExploreSubjects, QuicksortOutputIsSortedOnEveryPath) {
  // 6 values, 4 sorters that split: the order of the two answers at each is free, 2^4 classes.
  expect_correct("quicksort", {"--n", "6"}, 16);
}

TEST_F(ExploreSubjects, SpinsortNodesKeepTheirValueInOrderOnEveryPath) {
  expect_correct("spinsort", {"--n", "3"}, 72);
}

TEST_F(ExploreSubjects, ChameneosMeetingsAddUpOnEveryPath) {
  expect_correct("chameneos", {"--creatures", "2", "--meetings", "2"}, 24);
}

TEST_F(ExploreSubjects, ShortpathDistancesEqualDijkstrasOnEveryPath) {
  expect_correct("shortpath", {"--nodes", "4"}, 76);
}

TEST_F(ExploreSubjects, FixedDiningPhilosophersNeverDeadlock) {
  // Which philosopher gets each contended fork first: 6 classes with 3 philosophers.
  expect_correct("diningphil", {"--n", "3", "--fixed"}, 6);
}

TEST_F(ExploreSubjects, FixedFuturesTakeTheLocksInOneOrderAndNeverDeadlock) {
  expect_correct("futures-deadlock", {"--fixed"}, 2);
}

TEST_F(ExploreSubjects, FuturesTakingLocksInOppositeOrdersDeadlock) {
  if (!built("futures-deadlock")) GTEST_SKIP() << "futures-deadlock not built";
  for (const char* reduction : {"exhaustive", "dpor", "transdpor"}) {
    const auto result = figures(
        {"--strategy", "systematic", "--workers", "2", "--reduction", reduction, "--keep-going"}, "futures-deadlock");
    EXPECT_EQ(result.exit_code, 1) << reduction << "\n" << result.summary.dump(2);
    EXPECT_TRUE(result.complete) << reduction;
    EXPECT_EQ(result.classes, 3u) << reduction;
    ASSERT_EQ(result.bugs, 1u) << reduction;
    const auto& bug = result.summary.at("bugs").at(0);
    EXPECT_EQ(bug.at("status"), "RUN_DEADLOCK") << reduction;
    EXPECT_NE(bug.at("detail").get<std::string>().find("pending, none enabled: 0.3#3 (Acquire to 0.1), 0.4#2 "
                                                       "(Acquire to 0.2)"),
              std::string::npos)
        << bug.at("detail");
  }
}

TEST_F(ExploreSubjects, DiningPhilosophersDeadlockAndTheTraceReplays) {
  if (!built("diningphil")) GTEST_SKIP() << "diningphil not built";
  for (const char* reduction : {"dpor", "transdpor"}) {
    const auto result =
        figures({"--workers", "2", "--reduction", reduction, "--no-sleep-sets"}, "diningphil", {"--n", "3"});
    ASSERT_EQ(result.exit_code, 1) << reduction << "\n" << result.summary.dump(2);
    const auto& bug = result.summary.at("bugs").at(0);
    EXPECT_EQ(bug.at("status"), "RUN_DEADLOCK") << reduction;
    // Every philosopher holds its left fork and waits for the right one.
    const auto detail = bug.at("detail").get<std::string>();
    for (const char* waiting : {"actor 0.4 waits", "actor 0.5 waits", "actor 0.6 waits"}) {
      EXPECT_NE(detail.find(waiting), std::string::npos) << detail;
    }
    const auto trace_path = dir() / bug.at("trace").get<std::string>();
    EXPECT_EQ(wire::read_trace_file(trace_path).result().status(), proto::RUN_DEADLOCK);
    const auto replay = exocheck({"replay", trace_path.string()});
    EXPECT_EQ(replay.exit_code, 1) << replay.err;
    EXPECT_NE(replay.out.find("Replay: reproduced"), std::string::npos) << replay.out;
  }
}

}  // namespace
}  // namespace exocheck::explore_test
