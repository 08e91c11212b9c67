// Timers under exploration, on the retry subject (subjects/retry): a call's timeout is a delivery
// the schedule chooses, so the timeout that fires before a late reply, the retry and the duplicated
// deposit are found, replayed and shrunk; the fixed server explores completely with no bug, with
// the same classes under every reduction.
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, ATimeoutBeforeALateReplyRetriesAndTheDepositIsAppliedTwice) {
  if (!built("retry")) GTEST_SKIP() << "retry not built";
  expect_bug_replays(figures({}, "retry"), "RUN_ASSERTION_FAILED", {"applied twice"});
  const auto shrunk = exocheck({"shrink", "-o", "s.trace", "out/bug-1.trace"});
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
  EXPECT_NE(shrunk.out.find("fails the same way"), std::string::npos) << shrunk.out;
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"});
  EXPECT_NE(shown.out.find("(call timeout, after 100 ms)"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("[timer fired at 100 ms]"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("[cancelled: "), std::string::npos) << shown.out;
}

TEST_F(ExploreTest, TheIdempotentServerExploresCompletelyUnderEveryReduction) {
  if (!built("retry")) GTEST_SKIP() << "retry not built";
  for (const std::string reduction : {"exhaustive", "dpor", "transdpor", "optimal"}) {
    for (const auto& [retries, classes] : {std::pair{"--retries=1", 6u}, std::pair{"--retries=2", 22u}}) {
      const auto fixed = figures({"--reduction", reduction, "--workers", "1"}, "retry", {"--fixed", retries});
      const std::string what = reduction + " " + retries;
      EXPECT_EQ(fixed.exit_code, 0) << what << "\n" << fixed.summary.dump(2);
      EXPECT_EQ(fixed.classes, classes) << what;
      if (reduction == "optimal") {
        EXPECT_EQ(fixed.paths, classes) << what;
      }
      // The same classes with the bug: every path on which the deposit is retried fails.
      const auto buggy = figures({"--reduction", reduction, "--workers", "1", "--keep-going"}, "retry", {retries});
      EXPECT_EQ(buggy.exit_code, 1) << what;
      EXPECT_EQ(buggy.classes, classes) << what;
    }
  }
}

// Under --timers quiescent a timer fires only when nothing else can be delivered: the reply always
// comes first, so the client never retries and there is one class.
TEST_F(ExploreTest, WhenTimersFireOnlyAtQuiescenceTheReplyAlwaysWins) {
  if (!built("retry")) GTEST_SKIP() << "retry not built";
  const auto f = figures({"--timers", "quiescent"}, "retry");
  EXPECT_EQ(f.exit_code, 0) << f.summary.dump(2);
  EXPECT_EQ(f.classes, 1u);
  EXPECT_EQ(f.summary.at("options").at("timers"), "quiescent");
}

// A periodic timer that is never cancelled: no run ends. Every run reaches the step limit, which
// the summary names (exit 3); --check termination reports the first as a livelock that replays.
TEST_F(ExploreTest, AHeartbeatThatNeverStopsBoundsTheExplorationAndTerminationFindsIt) {
  if (!built("pingpong")) GTEST_SKIP() << "pingpong not built";
  const std::vector<std::string> subject{"--steps=4", "--heartbeat"};
  for (const auto& [timers, classes] : {std::pair{"anytime", 68u}, std::pair{"quiescent", 1u}}) {
    const auto f = figures({"--strategy", "systematic", "--timers", timers, "--workers", "1", "--step-limit", "12"},
                           "pingpong", subject);
    EXPECT_EQ(f.exit_code, 3) << timers << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.classes, classes) << timers;
    EXPECT_EQ(f.summary.at("stats").at("step_limited"), classes) << timers;
    EXPECT_NE(f.summary.at("warnings").dump().find("at the step limit of 12"), std::string::npos) << timers;
  }
  const auto livelock = figures({"--step-limit", "12", "--check", "termination"}, "pingpong", subject);
  ASSERT_EQ(livelock.exit_code, 1) << livelock.summary.dump(2);
  EXPECT_EQ(livelock.summary.at("bugs").at(0).at("status"), "RUN_STEP_LIMIT");
  const auto replay =
      exocheck({"replay", (dir() / livelock.summary.at("bugs").at(0).at("trace").get<std::string>()).string()});
  EXPECT_NE(replay.out.find("Replay: reproduced RUN_STEP_LIMIT"), std::string::npos) << replay.out << replay.err;
}

}  // namespace
}  // namespace exocheck::explore_test
