// Subjects written from Coyote's published samples, each with a safety and a liveness
// specification monitor: the sample's documented bug found with the default options and only the
// fault or timer flags it needs, replayed and shrunk; the fixed variant complete with no bug.
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

class CoyoteSamples : public ExploreTest {
 protected:
  /// The fixed variant under random and PCT runs (seeds 1 to 3, 100 runs each): no bug, and no
  /// verdict but "bounded" (samples never show that every class was explored).
  void expect_no_sampled_bug(const std::string& subject, const std::vector<std::string>& options,
                             const std::vector<std::string>& subject_args) {
    for (const std::string strategy : {"random", "pct"}) {
      for (const std::string seed : {"1", "2", "3"}) {
        auto sampled = options;
        sampled.insert(sampled.end(), {"--strategy", strategy, "--seed", seed, "--runs", "100", "--keep-going"});
        const auto f = figures(sampled, subject, subject_args);
        EXPECT_EQ(f.exit_code, 3) << subject << " " << strategy << " seed " << seed << "\n" << f.summary.dump(2);
        EXPECT_EQ(f.bugs, 0u) << subject << " " << strategy << " seed " << seed;
      }
    }
  }
};

// coffee-machine (Coyote's CoffeeMachineActors): a controller that reboots mid-coffee (a crash
// with restart) reads a negative hopper level as beans left, and grinds with no beans.
TEST_F(CoyoteSamples, ACoffeeMachineRebootedMidCoffeeGrindsWithNoBeans) {
  if (!built("coffee-machine")) GTEST_SKIP() << "coffee-machine not built";
  const std::vector<std::string> crash{"--crash", "1", "--crash-types", "CoffeeMachine"};
  auto options = crash;
  options.insert(options.end(), {"--seed", "1"});
  expect_bug_replays(figures(options, "coffee-machine"), "RUN_ASSERTION_FAILED",
                     {"monitor MachineSafety: the grinder was turned on with no beans in the hopper"});
  const auto shrunk = exocheck({"shrink", "-o", "s.trace", "out/bug-1.trace"});
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
  EXPECT_NE(exocheck({"replay", "s.trace"}).out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos);

  auto systematic = crash;
  systematic.insert(systematic.end(), {"--strategy", "systematic", "--workers", "1", "--keep-going"});
  const auto buggy = figures(systematic, "coffee-machine");
  EXPECT_EQ(buggy.exit_code, 1) << buggy.summary.dump(2);
  EXPECT_EQ(buggy.classes, 157u);  // 159 with one lane for both monitors
  EXPECT_EQ(buggy.bugs, 1u);
  const auto fixed = figures(systematic, "coffee-machine", {"--fixed"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.summary.dump(2);
  EXPECT_EQ(fixed.classes, 142u);
  // Without a reboot the machine makes its coffees: one class, no bug.
  const auto no_fault = figures({"--strategy", "systematic", "--workers", "1"}, "coffee-machine");
  EXPECT_EQ(no_fault.exit_code, 0) << no_fault.summary.dump(2);
  EXPECT_EQ(no_fault.classes, 1u);
  expect_no_sampled_bug("coffee-machine", crash, {"--fixed"});
}

// failure-detector (Coyote's FailureDetector): pongs carry no round, so a late pong counts for the
// next round and a node that halted is pinged past the budget (safety) or, with two rounds, never
// declared failed (liveness). The timers racing the pongs are the default --timers anytime's.
TEST_F(CoyoteSamples, AFailureDetectorCountsALatePongForTheNextRound) {
  if (!built("failure-detector")) GTEST_SKIP() << "failure-detector not built";
  expect_bug_replays(figures({"--seed", "1"}, "failure-detector"), "RUN_ASSERTION_FAILED",
                     {"monitor PingBudget: node 1 was pinged 4 times after it failed"});
  const auto shrunk = exocheck({"shrink", "-o", "s.trace", "out/bug-1.trace"});
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
  expect_bug_replays(figures({"--strategy", "systematic"}, "failure-detector", {"--rounds", "2"}), "RUN_LIVENESS",
                     {"monitor EveryFailureDetected is hot in state node 1 failed before round 2 began"});
  const std::vector<std::string> systematic{"--strategy", "systematic", "--workers", "1", "--keep-going"};
  for (const std::string rounds : {"2", "3"}) {
    const auto buggy = figures(systematic, "failure-detector", {"--rounds", rounds});
    EXPECT_EQ(buggy.exit_code, 1) << rounds << "\n" << buggy.summary.dump(2);
    EXPECT_EQ(buggy.classes, 63u) << rounds;
    const auto fixed = figures(systematic, "failure-detector", {"--rounds", rounds, "--fixed"});
    EXPECT_EQ(fixed.exit_code, 0) << rounds << "\n" << fixed.summary.dump(2);
    EXPECT_EQ(fixed.classes, 63u) << rounds;
    EXPECT_EQ(fixed.bugs, 0u) << rounds;
  }
  // Two workers, items side by side: the same classes. When the hook recorded a notifying step's
  // clock without the monitors' order, optimal DPOR's sequences named a message twice here and
  // most explorations reported a replay divergence (some crashed).
  for (int attempt = 0; attempt < 3; ++attempt) {
    const auto two = figures({"--strategy", "systematic", "--workers", "2", "--keep-going"}, "failure-detector",
                             {"--fixed", "--nodes", "2", "--answers", "1", "--rounds", "2"});
    EXPECT_EQ(two.exit_code, 0) << two.summary.dump(2);
    EXPECT_EQ(two.classes, 412u);
    EXPECT_EQ(two.bugs, 0u);
  }
  // Timeouts only when nothing else can happen: every pong is in time, one class, no bug.
  const auto quiescent = figures({"--strategy", "systematic", "--timers", "quiescent"}, "failure-detector");
  EXPECT_EQ(quiescent.exit_code, 0) << quiescent.summary.dump(2);
  EXPECT_EQ(quiescent.classes, 1u);
  expect_no_sampled_bug("failure-detector", {}, {"--fixed"});
}

// replicated-storage (P#'s and Coyote's ReplicatingStorage): the manager takes a sync report
// from a node it has already forgotten, counts the dead node as a replica, and never repairs.
TEST_F(CoyoteSamples, AReplicatedStoreCountsAForgottenNodeAndNeverRepairs) {
  if (!built("replicated-storage")) GTEST_SKIP() << "replicated-storage not built";
  expect_bug_replays(figures({"--seed", "1"}, "replicated-storage"), "RUN_LIVENESS",
                     {"monitor Repaired is hot in state repairing: 1 of 2 replicas hold 7 where the run ended"});
  // A shorter schedule may run on longer before the run ends hot: never a longer "shrunk" trace.
  const auto shrunk = exocheck({"shrink", "--json", "-o", "s.trace", "out/bug-1.trace"});
  ASSERT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
  const auto report = nlohmann::json::parse(shrunk.out);
  EXPECT_LE(report.at("steps_after").get<int>(), report.at("steps_before").get<int>()) << shrunk.out;
  const std::vector<std::string> systematic{"--strategy", "systematic", "--workers", "1", "--keep-going"};
  const auto buggy = figures(systematic, "replicated-storage");
  EXPECT_EQ(buggy.exit_code, 1) << buggy.summary.dump(2);
  EXPECT_EQ(buggy.classes, 2996u);
  EXPECT_EQ(buggy.bugs, 1u);
  const auto fixed = figures(systematic, "replicated-storage", {"--fixed"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.summary.dump(2);
  EXPECT_EQ(fixed.classes, 2506u);
  // Sync timers for ever: the dead replica keeps the monitor hot past the bound.
  const std::vector<std::string> bounded{"--liveness-bound", "20", "--step-limit", "300"};
  auto found = bounded;
  found.insert(found.end(), {"--seed", "1"});
  expect_bug_replays(figures(found, "replicated-storage", {"--forever"}), "RUN_LIVENESS",
                     {"more than --liveness-bound 20", "a potential liveness bug"});
  expect_no_sampled_bug("replicated-storage", bounded, {"--fixed", "--forever"});
}

}  // namespace
}  // namespace exocheck::explore_test
