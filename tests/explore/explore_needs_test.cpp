// What each bug needs (issue 51): its faults, timers firing early and deliveries weaker than
// causal, tried away by replays of the real subjects. A need found is checked against the
// exploration it predicts: a bug that needs a delivery that is not FIFO is gone under --delivery
// fifo; one that needs a loss is gone without it.
#include <fstream>
#include <set>
#include <sstream>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

const char* const kRetryNeeds =
    "the 100 ms call timeout 1#2 of 1 (Client) firing at step 2 before 0#1 (Reply to 1) is delivered, sent 100 ms "
    "earlier at step 1";

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(ExploreTest, ARetriedDepositNeedsItsTimeoutToFireBeforeTheReplySentAtOnce) {
  if (!built("retry")) GTEST_SKIP() << "retry not built";
  const auto retry = figures({"--keep-going", "--junit", "retry.xml"}, "retry");
  ASSERT_EQ(retry.exit_code, 1) << retry.summary.dump(2);
  const auto& needs = retry.summary.at("bugs").at(0).at("needs");
  EXPECT_EQ(needs.at("conditions"), nlohmann::json::array({kRetryNeeds})) << needs.dump(2);
  EXPECT_EQ(needs.at("not_checked"), nlohmann::json::array());
  // Its steps and ids are those of the run needs.trace holds when that is not the bug's own: a
  // replay of it fails the same way.
  if (!needs.at("trace").is_null()) {
    const auto replayed = exocheck({"replay", needs.at("trace").get<std::string>()});
    EXPECT_EQ(replayed.exit_code, 1) << replayed.out;
    EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  }
  EXPECT_NE(file_text(dir().path() / "retry.xml").find(std::string("needs: ") + kRetryNeeds), std::string::npos);
  const auto replayed = exocheck({"replay", "--needs", "out/bug-1.trace"});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find(std::string("\nneeds: ") + kRetryNeeds), std::string::npos) << replayed.out;
  // Under quiescent timers no firing is early: the retry never happens.
  EXPECT_EQ(figures({"--keep-going", "--timers", "quiescent"}, "retry").exit_code, 0);
}

TEST_F(ExploreTest, TwoPhaseCommitsDisagreementNeedsTheCrashAndADownOvertakingTheDecision) {
  if (!built("two-phase-commit")) GTEST_SKIP() << "two-phase-commit not built";
  // On the default (a portfolio) too: a sampled run that finds a bug first is its trace only until
  // a systematic run as long comes, whose FIFO order after the prefix holds no more conditions than
  // the bug needs (a PCT run's held five, three of them orders the greedy search could not drop).
  const std::vector<std::string> crash{"--crash",   "1", "--crash-types", "Coordinator",
                                       "--workers", "1", "--keep-going"};
  const auto faulty = figures(crash, "two-phase-commit");
  ASSERT_EQ(faulty.exit_code, 1) << faulty.summary.dump(2);
  ASSERT_EQ(faulty.bugs, 2U);
  for (const auto& bug : faulty.summary.at("bugs")) {
    const auto& conditions = bug.at("needs").at("conditions");
    ASSERT_EQ(conditions.size(), 2U) << bug.dump(2);
    EXPECT_EQ(conditions.at(0).get<std::string>().rfind("a crash of 0 (Coordinator) after step ", 0), 0U)
        << bug.dump(2);
    const auto overtaking = conditions.at(1).get<std::string>();
    EXPECT_NE(overtaking.find("(Down from 0) delivered to 0."), std::string::npos) << overtaking;
    EXPECT_NE(overtaking.find("(Decision from 0), sent before it by the same actor (delivery that is not FIFO)"),
              std::string::npos)
        << overtaking;
  }
  auto fifo = crash;
  fifo.insert(fifo.end(), {"--delivery", "fifo"});
  const auto ordered = figures(fifo, "two-phase-commit");
  EXPECT_EQ(ordered.exit_code, 0) << ordered.summary.dump(2);
}

TEST_F(ExploreTest, ARetriedWriteUnderQuiescentTimersNeedsTheLossOfAnAcknowledgement) {
  if (!built("primary-backup")) GTEST_SKIP() << "primary-backup not built";
  const std::vector<std::string> options{"--timers", "quiescent", "--workers", "1", "--keep-going"};
  auto lossy = options;
  lossy.insert(lossy.end(), {"--lose", "1", "--lossy-types", "ForwardAck,WriteAck"});
  const auto lost = figures(lossy, "primary-backup");
  ASSERT_EQ(lost.exit_code, 1) << lost.summary.dump(2);
  ASSERT_EQ(lost.bugs, 2U);
  std::set<std::string> needs;
  for (const auto& bug : lost.summary.at("bugs")) {
    ASSERT_EQ(bug.at("needs").at("conditions").size(), 1U) << bug.dump(2);
    needs.insert(bug.at("needs").at("conditions").at(0).get<std::string>());
  }
  EXPECT_EQ(needs, (std::set<std::string>{"the loss of 0#1 (ForwardAck to 1) in step 3",
                                          "the loss of 1#2 (WriteAck to 2) in step 4"}));
  EXPECT_EQ(figures(options, "primary-backup").exit_code, 0);
}

TEST_F(ExploreTest, ABugOfTheProgramsOwnOrdersNeedsNothingUnlikelyAndNoNeedsLeavesItOut) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built";
  const auto bank = figures({"--keep-going"}, "caf-bank");
  ASSERT_EQ(bank.bugs, 1U) << bank.summary.dump(2);
  const auto& needs = bank.summary.at("bugs").at(0).at("needs");
  EXPECT_EQ(needs.at("conditions"), nlohmann::json::array());
  EXPECT_EQ(needs.at("not_checked"), nlohmann::json::array());
  const auto plain =
      exocheck({"explore", "--keep-going", "--out", "plain", "--", cli_test::subject_path("caf-bank").string()});
  EXPECT_NE(plain.out.find("\n    needs nothing unlikely: no fault, no timer firing early, no delivery weaker than "
                           "causal\n"),
            std::string::npos)
      << plain.out;
  const auto without = exocheck(
      {"explore", "--keep-going", "--no-needs", "--out", "plain", "--", cli_test::subject_path("caf-bank").string()});
  EXPECT_EQ(without.exit_code, 1);
  EXPECT_EQ(without.out.find("needs"), std::string::npos) << without.out;
}

}  // namespace
}  // namespace exocheck::explore_test
