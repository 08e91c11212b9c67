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

}  // namespace
}  // namespace exocheck::explore_test
