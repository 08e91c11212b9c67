// Specification monitors under exploration (exocheck/monitor.hpp): a safety monitor two
// unrelated actors notify, whose invariant one order of their notifications breaks
// (subjects/monitor-order), a liveness monitor hot where a run ends or for ever
// (subjects/answered), and both in a CAF program through exocheck/caf_monitor.hpp (caf-alarm).
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

// The door's and the alarm's actors never exchange a message: only the monitor orders their
// steps. A reduction that took the two orders for one class would miss the open door.
TEST_F(ExploreTest, TwoActorsNotifyingOneMonitorInTheWrongOrderIsFoundByEveryReduction) {
  if (!built("monitor-order")) GTEST_SKIP() << "monitor-order not built";
  for (const std::string reduction : {"exhaustive", "dpor", "transdpor", "optimal"}) {
    const auto f = figures({"--strategy", "systematic", "--reduction", reduction, "--workers", "1", "--keep-going"},
                           "monitor-order");
    EXPECT_EQ(f.exit_code, 1) << reduction << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.bugs, 1u) << reduction;
    // Open, Close and Arm: Arm before Open, between Open and Close (the bug), or after Close.
    EXPECT_EQ(f.classes, 3u) << reduction;
    EXPECT_EQ(f.failing_classes, 1u) << reduction;
    EXPECT_TRUE(f.complete) << reduction;
  }
  expect_bug_replays(figures({"--strategy", "systematic"}, "monitor-order"), "RUN_ASSERTION_FAILED",
                     {"monitor ShutWhenArmed: the alarm was armed while the door was open", "actor 1 handling"});
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"});
  EXPECT_NE(shown.out.find("ShutWhenArmed"), std::string::npos) << shown.out;
  // The step that notifies after another comes after it in its recorded clock: the alarm's Arm
  // knows the door's Open, through the monitor only.
  EXPECT_NE(shown.out.find("Arm      {0:1, 1:1}"), std::string::npos) << shown.out;
  const auto shrunk = exocheck({"shrink", "-o", "s.trace", "out/bug-1.trace"});
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
}

// A window beside the door, kept by the monitor in a part of its own (Monitor::in_part): the
// door's and the window's notifications commute, only the alarm's touches both. Five
// notifications, of which the door's two and the window's two are each ordered: 30 orders with
// the monitor whole, 9 classes with its parts (where Arm falls among the door's, times among the
// window's); the two kinds of violation are found either way.
TEST_F(ExploreTest, NotificationsOfTwoPartsOfAMonitorCommute) {
  if (!built("monitor-order")) GTEST_SKIP() << "monitor-order not built";
  for (const std::string reduction : {"exhaustive", "dpor", "transdpor", "optimal"}) {
    const std::vector<std::string> options{"--strategy", "systematic", "--reduction", reduction,
                                           "--workers",  "1",          "--keep-going"};
    const auto parts = figures(options, "monitor-order", {"--window"});
    EXPECT_EQ(parts.exit_code, 1) << reduction << "\n" << parts.summary.dump(2);
    EXPECT_EQ(parts.classes, 9u) << reduction;
    EXPECT_EQ(parts.failing_classes, 5u) << reduction;  // Arm not after both Shut and WindowShut
    EXPECT_EQ(parts.bugs, 2u) << reduction;             // the door open, the window open
    const auto whole = figures(options, "monitor-order", {"--window", "--whole"});
    EXPECT_EQ(whole.classes, 30u) << reduction;
    EXPECT_EQ(whole.bugs, 2u) << reduction;
    const auto fixed = figures(options, "monitor-order", {"--window", "--fixed"});
    EXPECT_EQ(fixed.exit_code, 0) << reduction << "\n" << fixed.summary.dump(2);
    EXPECT_EQ(fixed.classes, 18u) << reduction;
    EXPECT_TRUE(fixed.complete) << reduction;
  }
}

TEST_F(ExploreTest, EverySampledStrategyFindsTheMonitorsViolation) {
  if (!built("monitor-order")) GTEST_SKIP() << "monitor-order not built";
  for (const std::string strategy : {"random", "pct", "pos"}) {
    const auto f = figures({"--strategy", strategy, "--seed", "1", "--runs", "200"}, "monitor-order");
    EXPECT_EQ(f.exit_code, 1) << strategy << "\n" << f.summary.dump(2);
  }
  // The default, the portfolio.
  const auto portfolio = figures({"--seed", "1"}, "monitor-order");
  EXPECT_EQ(portfolio.exit_code, 1) << portfolio.summary.dump(2);
}

TEST_F(ExploreTest, TheAlarmThatWaitsForTheDoorIsCorrectEvenWithBystanders) {
  if (!built("monitor-order")) GTEST_SKIP() << "monitor-order not built";
  for (const std::string reduction : {"exhaustive", "optimal"}) {
    const auto f = figures({"--strategy", "systematic", "--reduction", reduction, "--workers", "1"}, "monitor-order",
                           {"--fixed", "--bystanders", "2"});
    EXPECT_EQ(f.exit_code, 0) << reduction << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.bugs, 0u) << reduction;
  }
}

TEST_F(ExploreTest, ARequestDroppedEndsTheRunWithTheMonitorHot) {
  if (!built("answered")) GTEST_SKIP() << "answered not built";
  expect_bug_replays(figures({}, "answered"), "RUN_LIVENESS",
                     {"monitor EveryRequestAnswered is hot in state waiting for an answer to request 1",
                      "where the run ended, completed after"});
  const auto explored = figures({"--strategy", "systematic"}, "answered", {"--fixed"});
  EXPECT_EQ(explored.exit_code, 0) << explored.summary.dump(2);
  EXPECT_EQ(explored.classes, 2u);
  for (const std::string strategy : {"random", "pct"}) {
    const auto fixed = figures({"--strategy", strategy, "--seed", "3", "--runs", "100"}, "answered", {"--fixed"});
    EXPECT_EQ(fixed.bugs, 0u) << strategy << "\n" << fixed.summary.dump(2);
    EXPECT_EQ(fixed.exit_code, 3) << strategy;
  }
}

// --forever: two players bounce a ball for ever, no run ends. The dropped request keeps the
// monitor hot through every later round: past --liveness-bound, a potential liveness bug.
// The default finds it with a sampled run, DPOR with its second path. Optimal DPOR's second run
// puts the request after every ball bounced in the first (its reversal keeps all the steps
// independent of it), at the step limit: not within 100 steps.
TEST_F(ExploreTest, AMonitorHotForEverInARunThatNeverEndsIsFoundPastTheBound) {
  if (!built("answered")) GTEST_SKIP() << "answered not built";
  for (const auto& strategy : {std::vector<std::string>{"--seed", "1"},
                               std::vector<std::string>{"--strategy", "systematic", "--reduction", "dpor"}}) {
    std::vector<std::string> options{"--liveness-bound", "10", "--step-limit", "100"};
    options.insert(options.end(), strategy.begin(), strategy.end());
    expect_bug_replays(figures(options, "answered", {"--forever"}), "RUN_LIVENESS",
                       {"for 11 fair rounds, more than --liveness-bound 10", "a potential liveness bug"});
  }
}

// The fixed server answers within a round or two of fair scheduling; schedules that starve it
// (systematic exploration tries them, PCT prefers them) end no round, so nothing is counted.
TEST_F(ExploreTest, TheFixedServerNeverIncursALivenessBugUnderAnyStrategyOrSeed) {
  if (!built("answered")) GTEST_SKIP() << "answered not built";
  const std::vector<std::string> bounded{"--liveness-bound", "10", "--step-limit", "100"};
  auto systematic = bounded;
  systematic.insert(systematic.end(), {"--strategy", "systematic", "--max-paths", "300", "--keep-going"});
  const auto explored = figures(systematic, "answered", {"--forever", "--fixed"});
  EXPECT_EQ(explored.exit_code, 3) << explored.summary.dump(2);
  EXPECT_EQ(explored.bugs, 0u);
  for (const std::string strategy : {"random", "pct", "pos"}) {
    for (const std::string seed : {"1", "2", "3", "4", "5"}) {
      auto sampled = bounded;
      sampled.insert(sampled.end(), {"--strategy", strategy, "--seed", seed, "--runs", "40", "--keep-going"});
      const auto f = figures(sampled, "answered", {"--forever", "--fixed"});
      EXPECT_EQ(f.exit_code, 3) << strategy << " seed " << seed << "\n" << f.summary.dump(2);
      EXPECT_EQ(f.bugs, 0u) << strategy << " seed " << seed;
    }
  }
}

// A CAF program's monitors run in the program (the header); the adapter records each notification
// in its step and judges the temperature where the run ends. Without the notifications the
// reductions would see the door's and the alarm's steps as independent (one class).
TEST_F(ExploreTest, ACafProgramsMonitorsAreKnownToEveryReduction) {
  if (!built("caf-alarm")) GTEST_SKIP() << "caf-alarm not built (no libcaf-dev)";
  for (const std::string reduction : {"exhaustive", "dpor", "transdpor", "optimal"}) {
    const auto f =
        figures({"--strategy", "systematic", "--reduction", reduction, "--workers", "1", "--keep-going"}, "caf-alarm");
    EXPECT_EQ(f.exit_code, 1) << reduction << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.classes, 3u) << reduction;
    EXPECT_EQ(f.failing_classes, 1u) << reduction;
    const auto fixed =
        figures({"--strategy", "systematic", "--reduction", reduction, "--workers", "1"}, "caf-alarm", {"--fixed"});
    EXPECT_EQ(fixed.exit_code, 0) << reduction << "\n" << fixed.summary.dump(2);
  }
  expect_bug_replays(figures({"--strategy", "systematic"}, "caf-alarm"), "RUN_ASSERTION_FAILED",
                     {"monitor ShutWhenArmed: the alarm was armed while the door was open"});
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"});
  EXPECT_NE(shown.out.find("[notified ShutWhenArmed: opened, then DoorShutInTheEnd: opened]"), std::string::npos)
      << shown.out;
  expect_bug_replays(figures({"--strategy", "systematic"}, "caf-alarm", {"--fixed", "--leave-open"}), "RUN_LIVENESS",
                     {"monitor DoorShutInTheEnd is hot in state the door is open where the run ended"});
}

}  // namespace
}  // namespace exocheck::explore_test
