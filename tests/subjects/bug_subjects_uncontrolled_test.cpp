// serverreal, minesweeper, le-erlang, futures-dataproc and retry started by hand (thread-pool runtime,
// no control channel).

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "subject_process.hpp"

namespace exocheck::testing {
namespace {

constexpr int kRepetitions = 20;

// Both inventories and the order, as the sample prints them.
const std::regex kServerrealOutput(
    R"((<inventory value="[0-9.]+">(<item [^>]*/>)*</inventory>\n){2}<order>.*</order>\n)");

TEST(ServerrealUncontrolled, FixedVariantPrintsTwoInventoriesAndTheOrder) {
  for (int run = 0; run < kRepetitions; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto result = run_subject("serverreal", {"--fixed"});
    ASSERT_FALSE(result.timed_out);
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_TRUE(std::regex_match(result.out, kServerrealOutput)) << result.out;
  }
}

// By hand the two answers an inventory is made of usually agree (the thread pool rarely lets the
// order's update in between): a run prints what the fixed variant prints, or fails the check with
// the inconsistency named, never anything else. Exploration finds it on some path every time
// (ExploreBugSubjects.ServerrealInventoryIsInconsistentOnSomePathAndTheTraceReplays).
TEST(ServerrealUncontrolled, BuggyVariantEndsCleanlyOrWithTheInconsistency) {
  const std::regex inconsistency(R"(inconsistent inventory: value [0-9.]+ but the listed items are worth [0-9.]+)");
  for (int run = 0; run < kRepetitions; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto result = run_subject("serverreal", {});
    ASSERT_FALSE(result.timed_out);
    if (result.exit_code == 0) {
      EXPECT_TRUE(std::regex_match(result.out, kServerrealOutput)) << result.out;
      EXPECT_FALSE(std::regex_search(result.err, inconsistency)) << result.err;
    } else {
      EXPECT_EQ(result.exit_code, 1) << result.err;
      EXPECT_TRUE(std::regex_search(result.err, inconsistency)) << result.err;
    }
  }
}

TEST(FuturesDataprocUncontrolled, EveryRunWritesTheSameArray) {
  for (int run = 0; run < kRepetitions; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto result = run_subject("futures-dataproc", {});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "array: 5 25 61 91\n");
  }
  const auto larger = run_subject("futures-dataproc", {"--futures", "4", "--chunk", "3"});
  EXPECT_EQ(larger.exit_code, 0);
  EXPECT_EQ(larger.out, "array: 14 77 194 365 650\n");
}

TEST(MinesweeperUncontrolled, FixedCellsRevealTheSequentialFloodFill) {
  for (int run = 0; run < kRepetitions; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto result = run_subject("minesweeper", {"--fixed"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "000/011/01.\n");
  }
  const auto larger = run_subject("minesweeper", {"--rows", "4", "--cols", "5", "--mines", "3", "--fixed"});
  EXPECT_EQ(larger.exit_code, 0);
  EXPECT_EQ(larger.out, "00000/00000/01232/01...\n");
}

TEST(LeErlangUncontrolled, ThreeNodesWithoutFailuresAgreeOnALeader) {
  for (int run = 0; run < kRepetitions; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto result = run_subject("le-erlang", {"--nodes", "3", "--failures", "0", "--fifo"});
    ASSERT_FALSE(result.timed_out);
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_TRUE(std::regex_match(result.out, std::regex("node 2: leader n[0-2]\n"))) << result.out;
  }
}

// Real timers: the account answers well within the client's 100 ms, so the deposit is
// acknowledged once; the buggy variant may still retry on a loaded machine (and then fail).
TEST(RetryUncontrolled, TheFixedAccountIsAcknowledgedAndTheBuggyOneAtWorstFails) {
  for (int run = 0; run < kRepetitions; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto fixed = run_subject("retry", {"--fixed"});
    ASSERT_FALSE(fixed.timed_out);
    EXPECT_EQ(fixed.exit_code, 0);
    EXPECT_EQ(fixed.out, "retry: done\n");
  }
  const auto buggy = run_subject("retry", {});
  ASSERT_FALSE(buggy.timed_out);
  EXPECT_TRUE(buggy.exit_code == 0 || buggy.exit_code == 1) << "exit code " << buggy.exit_code;
}

TEST(BugSubjectsCommandLine, RejectsBadValuesWithExitCodeTwo) {
  EXPECT_EQ(run_subject("minesweeper", {"--mines", "9"}).exit_code, 2);  // a 3x3 board
  EXPECT_EQ(run_subject("minesweeper", {"--rows", "0"}).exit_code, 2);
  EXPECT_EQ(run_subject("le-erlang", {"--nodes", "1"}).exit_code, 2);
  EXPECT_EQ(run_subject("futures-dataproc", {"--futures", "0"}).exit_code, 2);
  EXPECT_EQ(run_subject("retry", {"--retries", "11"}).exit_code, 2);
}

}  // namespace
}  // namespace exocheck::testing
