// The subjects serverreal, minesweeper, le-erlang and futures-dataproc through `exocheck explore`:
// each buggy one's finding, with its detail and a trace that replays; each correct one explored
// completely with the same classes under TransDPOR as under exhaustive exploration.

#include "exocheck/wire/trace_file.hpp"
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

using ExploreBugSubjects = ExploreTest;

TEST_F(ExploreBugSubjects, ServerrealInventoryIsInconsistentOnSomePathAndTheTraceReplays) {
  if (!built("serverreal")) GTEST_SKIP() << "serverreal not built";
  for (const char* reduction : {"dpor", "transdpor"}) {
    SCOPED_TRACE(reduction);
    const auto result = figures({"--workers", "2", "--reduction", reduction}, "serverreal");
    EXPECT_FALSE(result.complete);
    // An Update handled between the two "items" queries of an inventory. Which inconsistent path
    // comes first depends on which of the 2 workers finishes first.
    expect_bug_replays(result, "RUN_ASSERTION_FAILED",
                       {"inconsistent inventory: value ", " but the listed items are worth "});
  }
}

TEST_F(ExploreBugSubjects, ServerrealHasFortyThreeInconsistentClassesOutOf579) {
  if (!built("serverreal")) GTEST_SKIP() << "serverreal not built";
  // Exhaustive exploration once counted 602: runs cut short by sleep sets after a failed check
  // were reported as bugs with a truncated trace (a class of their own).
  for (const char* reduction : {"exhaustive", "transdpor"}) {
    const auto result = figures({"--workers", "2", "--reduction", reduction, "--keep-going"}, "serverreal");
    EXPECT_EQ(result.exit_code, 1) << reduction;
    EXPECT_TRUE(result.complete) << reduction;
    EXPECT_EQ(result.classes, 579u) << reduction;
    EXPECT_EQ(result.failing_classes, 43u) << reduction;
    EXPECT_EQ(result.bugs, 1u) << reduction;  // one check, failing on other values
  }
}

TEST_F(ExploreBugSubjects, FixedServerrealInventoryIsConsistentOnEveryPath) {
  // Where the Updates fall among the server's Items and Order calls, and whether they come
  // before Exit: 536 classes.
  expect_correct("serverreal", {"--fixed"}, 536);
}

TEST_F(ExploreBugSubjects, FuturesDataprocArrayIsTheSameOnEveryPath) {
  // The order in which the futures take the lock: 3! and 4! classes.
  expect_correct("futures-dataproc", {"--futures", "3"}, 6);
  expect_correct("futures-dataproc", {"--futures", "4"}, 24);
}

TEST_F(ExploreBugSubjects, MinesweeperCellsDeadlockAndTheTraceReplays) {
  if (!built("minesweeper")) GTEST_SKIP() << "minesweeper not built";
  for (const char* reduction : {"dpor", "transdpor"}) {
    SCOPED_TRACE(reduction);
    const auto result =
        figures({"--strategy", "systematic", "--workers", "2", "--reduction", reduction}, "minesweeper");
    // Cells 1, 3 and 4, revealed by cell 0, ask each other IsMine: a cycle of waits.
    expect_bug_replays(result, "RUN_DEADLOCK",
                       {"actor 0.2 waits for the reply to 0.2#4", "actor 0.4 waits for the reply to 0.4#3",
                        "actor 0.5 waits for the reply to 0.5#3", "0.2#4 (IsMine to 0.4)"});
  }
}

TEST_F(ExploreBugSubjects, FixedMinesweeperNeverDeadlocks) {
  expect_correct("minesweeper", {"--rows", "1", "--cols", "5", "--fixed"}, 192);
}

TEST_F(ExploreBugSubjects, LeErlangFourNodesCanEndWithoutALeaderAndTheTraceReplays) {
  if (!built("le-erlang")) GTEST_SKIP() << "le-erlang not built";
  // Two nodes capture one node each and wait for ever: node 3 never learns a leader.
  for (const char* reduction : {"dpor", "transdpor"}) {
    SCOPED_TRACE(reduction);
    const auto result =
        figures({"--workers", "2", "--reduction", reduction, "--heuristic", "lca"}, "le-erlang", {"--failures", "0"});
    expect_bug_replays(result, "RUN_DEADLOCK", {"pending, none enabled: env#5 (WhoIsLeader to 3)"});
  }
}

TEST_F(ExploreBugSubjects, LeErlangThreeCrashesCanLeaveTwoLeadersAndTheFoundScheduleReplays) {
  // Exploring `le-erlang --nodes 3 --failures 3 --fifo` (TransDPOR, sleep sets, FIFO, 1 worker)
  // found this schedule after 98,931 paths and 244 s (142,688 paths with this build): too long
  // for the suite, so the test replays the trace it saved, against the subject as built now. PCT
  // finds the bug itself (explore_sampled_test.cpp).
  if (!built("le-erlang")) GTEST_SKIP() << "le-erlang not built";
  const std::string trace = std::string(EXOCHECK_TEST_DATA_DIR) + "/le-erlang-two-leaders.trace";
  const auto replay = exocheck({"replay", trace, "--", cli_test::subject_path("le-erlang").string(), "--nodes", "3",
                                "--failures", "3", "--fifo"});
  EXPECT_EQ(replay.exit_code, 1) << replay.err;
  EXPECT_NE(replay.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replay.out;
  EXPECT_NE(replay.out.find("two leaders: n0 is elected and n1 says it is elected too"), std::string::npos)
      << replay.out;
}

TEST_F(ExploreBugSubjects, LeErlangThreeNodesWithoutFailuresElectOneLeader) {
  expect_correct("le-erlang", {"--nodes", "3", "--failures", "0", "--fifo"}, 176);
}

}  // namespace
}  // namespace exocheck::explore_test
