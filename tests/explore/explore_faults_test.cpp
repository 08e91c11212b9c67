// Faults injected as explored choices, on the two-phase-commit subject (subjects/two-phase-commit):
// without faults every run commits everywhere; with a crash of the coordinator allowed (--crash 1
// --crash-types Coordinator) a participant that aborts alone once it hears of the crash disagrees
// with one that got the commit first, a bug found, shown, replayed and shrunk; the fixed protocol
// (participants wait, the coordinator restarts from its log) has none, the same classes under
// every reduction.
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

const std::vector<std::string> kCoordinatorCrash{"--crash", "1", "--crash-types", "Coordinator", "--workers", "1"};

std::vector<std::string> with(std::vector<std::string> options, const std::vector<std::string>& more) {
  options.insert(options.end(), more.begin(), more.end());
  return options;
}

TEST_F(ExploreTest, TwoPhaseCommitNeedsACrashToFail) {
  if (!built("two-phase-commit")) GTEST_SKIP() << "two-phase-commit not built";
  const auto calm = figures({"--workers", "1"}, "two-phase-commit");
  EXPECT_EQ(calm.exit_code, 0) << calm.summary.dump(2);
  EXPECT_EQ(calm.classes, 40u);
  const auto faulty = figures(with(kCoordinatorCrash, {"--keep-going"}), "two-phase-commit");
  EXPECT_EQ(faulty.exit_code, 1) << faulty.summary.dump(2);
  EXPECT_EQ(faulty.classes, 806u);
  EXPECT_EQ(faulty.paths, 806u);  // optimal: one execution per class, faults included
  EXPECT_EQ(faulty.failing_classes, 320u);
  const auto& faults = faulty.summary.at("options").at("faults");
  EXPECT_EQ(faults.at("crash"), 1);
  EXPECT_EQ(faults.at("crash_types"), nlohmann::json::array({"Coordinator"}));
}

// Paths with a fault are counted; a budget no run used (a misspelled type) is warned of, not passed
// off as a program that survives the fault.
TEST_F(ExploreTest, PathsWithAFaultAreCountedAndABudgetNoRunUsedIsWarnedOf) {
  if (!built("two-phase-commit")) GTEST_SKIP() << "two-phase-commit not built";
  const auto faulty = figures(with(kCoordinatorCrash, {"--keep-going"}), "two-phase-commit");
  EXPECT_EQ(faulty.summary.at("stats").at("faulted_paths"), 766);  // 806 classes, 40 without a crash
  EXPECT_EQ(faulty.summary.at("warnings").dump().find("no run had a fault injected"), std::string::npos);
  const auto misnamed = figures({"--workers", "1", "--crash", "1", "--crash-types", "coordinator"}, "two-phase-commit");
  EXPECT_EQ(misnamed.exit_code, 0) << misnamed.summary.dump(2);
  EXPECT_EQ(misnamed.classes, 40u);
  EXPECT_EQ(misnamed.summary.at("stats").at("faulted_paths"), 0);
  EXPECT_NE(misnamed.summary.at("warnings").dump().find("no run had a fault injected"), std::string::npos)
      << misnamed.summary.dump(2);
  const auto none = figures({"--workers", "1"}, "two-phase-commit");
  EXPECT_EQ(none.summary.at("warnings").dump().find("no run had a fault injected"), std::string::npos);
}

TEST_F(ExploreTest, ACoordinatorCrashIsShownReplayedAndShrunk) {
  if (!built("two-phase-commit")) GTEST_SKIP() << "two-phase-commit not built";
  expect_bug_replays(figures(kCoordinatorCrash, "two-phase-commit"), "RUN_ASSERTION_FAILED",
                     {"participants decided differently"});
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"});
  EXPECT_NE(shown.out.find("Faults: crash 1 (Coordinator) per actor and run"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("[crashed]"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("Down{actor=0, reason=crashed}"), std::string::npos) << shown.out;
  const auto shrunk = exocheck({"shrink", "-o", "s.trace", "out/bug-1.trace"});
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
  EXPECT_NE(shrunk.out.find("fails the same way"), std::string::npos) << shrunk.out;
  const auto replayed = exocheck({"replay", "s.trace"});
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
}

TEST_F(ExploreTest, TwoPhaseCommitWithARecoveringCoordinatorHasNoBugUnderEveryReduction) {
  if (!built("two-phase-commit")) GTEST_SKIP() << "two-phase-commit not built";
  for (const std::string reduction : {"dpor", "transdpor", "optimal"}) {
    const auto fixed = figures(with(kCoordinatorCrash, {"--reduction", reduction}), "two-phase-commit", {"--fixed"});
    EXPECT_EQ(fixed.exit_code, 0) << reduction << "\n" << fixed.summary.dump(2);
    EXPECT_EQ(fixed.classes, 8376u) << reduction;
  }
}

// primary-backup (subjects/primary-backup): a lost acknowledgement, then the client's retry, applies
// a write twice; no bug without the loss, nor with request ids remembered (--fixed).
TEST_F(ExploreTest, ALostAcknowledgementAndARetryApplyAWriteTwice) {
  if (!built("primary-backup")) GTEST_SKIP() << "primary-backup not built";
  const std::vector<std::string> quiescent{"--timers", "quiescent", "--workers", "1", "--keep-going"};
  const std::vector<std::string> loss{"--lose", "1", "--lossy-types", "ForwardAck,WriteAck"};
  const auto calm = figures(quiescent, "primary-backup");
  EXPECT_EQ(calm.exit_code, 0) << calm.summary.dump(2);
  EXPECT_EQ(calm.classes, 1u);
  const auto lossy = figures(with(quiescent, loss), "primary-backup");
  EXPECT_EQ(lossy.exit_code, 1) << lossy.summary.dump(2);
  EXPECT_EQ(lossy.classes, 5u);
  EXPECT_EQ(lossy.bugs, 2u);  // the primary's ack lost, or the backup's
  const auto fixed = figures(with(quiescent, loss), "primary-backup", {"--fixed"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.summary.dump(2);
  EXPECT_EQ(fixed.classes, 4u);
  expect_bug_replays(figures(with({"--timers", "quiescent", "--workers", "1"}, loss), "primary-backup"),
                     "RUN_ASSERTION_FAILED", {"applied twice"});
  EXPECT_NE(exocheck({"trace", "show", "out/bug-1.trace"}).out.find("[lost: "), std::string::npos);
}

// kv-quorum (subjects/kv-quorum): a write lost on its way to one replica and a replica that forgets
// it in a crash and restart leave a read quorum without it; a replica that keeps the value on its
// disk loses nothing.
TEST_F(ExploreTest, APartitionAndACrashThatForgetsLoseAnAcknowledgedWrite) {
  if (!built("kv-quorum")) GTEST_SKIP() << "kv-quorum not built";
  // One replica may crash (replica 1), once; a write may be lost. In FIFO order (a write still in
  // flight is not overtaken by the read) the crash alone is not enough.
  const std::vector<std::string> crash{"--delivery", "fifo", "--crash", "1", "--crash-actors", "1", "--workers", "1"};
  const auto crash_only = figures(with(crash, {"--keep-going"}), "kv-quorum");
  EXPECT_EQ(crash_only.exit_code, 0) << crash_only.summary.dump(2);
  EXPECT_EQ(crash_only.classes, 216u);
  const auto faults = with(crash, {"--lose", "1", "--lossy-types", "Write"});
  const auto buggy = figures(with(faults, {"--keep-going"}), "kv-quorum");
  EXPECT_EQ(buggy.exit_code, 1) << buggy.summary.dump(2);
  EXPECT_EQ(buggy.classes, 312u);
  EXPECT_EQ(buggy.paths, 312u);
  EXPECT_EQ(buggy.failing_classes, 8u);
  const auto fixed = figures(faults, "kv-quorum", {"--fixed"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.summary.dump(2);
  EXPECT_EQ(fixed.classes, 312u);
  expect_bug_replays(figures(faults, "kv-quorum"), "RUN_ASSERTION_FAILED", {"read returned"});
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"}).out;
  EXPECT_NE(shown.find("[crashed, restarted]"), std::string::npos) << shown;
  EXPECT_NE(shown.find("[lost: "), std::string::npos) << shown;
}

// The same scenario with the partition as such: replica 0's side cut off (--partition-side 0) at one
// of the client's sends and healed at a later one, not one lost message. The partition alone loses
// nothing; with the crash the write is lost, shown with the cut and the heal, and replayed.
TEST_F(ExploreTest, APartitionThatHealsAndACrashThatForgetsLoseAnAcknowledgedWrite) {
  if (!built("kv-quorum")) GTEST_SKIP() << "kv-quorum not built";
  const std::vector<std::string> partition{"--delivery",       "fifo", "--partition", "1",
                                           "--partition-side", "0",    "--workers",   "1"};
  const auto partition_only = figures(with(partition, {"--keep-going"}), "kv-quorum");
  EXPECT_EQ(partition_only.exit_code, 0) << partition_only.summary.dump(2);
  EXPECT_EQ(partition_only.classes, 160u);
  EXPECT_EQ(partition_only.summary.at("stats").at("faulted_paths"), 88);
  const auto faults = with(partition, {"--crash", "1", "--crash-actors", "1"});
  for (const std::string reduction : {"optimal", "dpor", "transdpor"}) {
    const auto fixed = figures(with(faults, {"--reduction", reduction}), "kv-quorum", {"--fixed"});
    EXPECT_EQ(fixed.exit_code, 0) << reduction << fixed.summary.dump(2);
    EXPECT_EQ(fixed.classes, 480u) << reduction;
  }
  const auto buggy = figures(with(faults, {"--keep-going"}), "kv-quorum");
  EXPECT_EQ(buggy.exit_code, 1) << buggy.summary.dump(2);
  EXPECT_EQ(buggy.classes, 480u);
  EXPECT_EQ(buggy.paths, 480u);
  EXPECT_EQ(buggy.failing_classes, 4u);
  expect_bug_replays(figures(faults, "kv-quorum"), "RUN_ASSERTION_FAILED", {"read returned"});
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"}).out;
  EXPECT_NE(shown.find("partition 1 (side 0)"), std::string::npos) << shown;
  EXPECT_NE(shown.find("[link cut at 3#1]"), std::string::npos) << shown;
  EXPECT_NE(shown.find("[link healed at "), std::string::npos) << shown;
}

}  // namespace
}  // namespace exocheck::explore_test
