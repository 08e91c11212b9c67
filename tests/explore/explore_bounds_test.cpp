// Runs that do not end: `exocheck explore` never calls an exploration complete when a run was cut
// at the step limit (exit 3, the summary says how many and at what limit), and --check termination
// turns such a run into a bug with a trace that replays.
#include <filesystem>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, ARunCutAtTheStepLimitMakesTheExplorationBoundedNotComplete) {
  if (!built("pingpong")) GTEST_SKIP() << "pingpong not built";
  const auto f = figures({"--step-limit", "100"}, "pingpong", {"--steps=1000"});
  EXPECT_EQ(f.exit_code, 3) << f.summary.dump(2);
  EXPECT_FALSE(f.complete);
  EXPECT_EQ(f.bugs, 0u);
  EXPECT_EQ(f.summary.at("stats").at("step_limited"), 1);
  EXPECT_EQ(f.summary.at("verdict"), "limit");
  const auto warnings = f.summary.at("warnings").dump();
  EXPECT_NE(warnings.find("1 run was cut at the step limit of 100"), std::string::npos) << warnings;
  EXPECT_NE(f.summary.at("summary").get<std::string>().find("incomplete"), std::string::npos);
  // Within the limit, the same program is explored completely.
  EXPECT_EQ(figures({"--step-limit", "1000"}, "pingpong", {"--steps=1000"}).exit_code, 0);
}

TEST_F(ExploreTest, CheckTerminationReportsARunCutAtTheStepLimitAsABugThatReplays) {
  if (!built("pingpong")) GTEST_SKIP() << "pingpong not built";
  const auto f = figures({"--step-limit", "100", "--check", "termination"}, "pingpong", {"--steps=1000"});
  ASSERT_EQ(f.exit_code, 1) << f.summary.dump(2);
  EXPECT_EQ(f.summary.at("options").at("check"), "termination");
  EXPECT_EQ(f.bugs, 1u);
  const auto& bug = f.summary.at("bugs").at(0);
  EXPECT_EQ(bug.at("status"), "RUN_STEP_LIMIT");
  const auto replay = exocheck({"replay", (dir() / bug.at("trace").get<std::string>()).string()});
  EXPECT_EQ(replay.exit_code, 3) << replay.out << replay.err;  // reproduced: the run does not end
  EXPECT_NE(replay.out.find("Replay: reproduced RUN_STEP_LIMIT"), std::string::npos) << replay.out;
  // Both checks at once, as a list.
  const auto both =
      figures({"--step-limit", "100", "--check", "determinism,termination"}, "pingpong", {"--steps=1000"});
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_EQ(both.summary.at("options").at("check"), "determinism,termination");
}

// Where most paths fail, a trace per bug would fill memory: --keep-going keeps the traces of the
// first --bug-traces bugs (100 by default) and counts the rest, and says so.
TEST_F(ExploreTest, KeepGoingKeepsTheTracesOfTheFirstBugsAndCountsTheRest) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  const auto f = figures({"--keep-going", "--workers", "1", "--bug-traces", "5"}, "election");
  ASSERT_EQ(f.exit_code, 1) << f.summary.dump(2);
  EXPECT_EQ(f.summary.at("bugs").size(), 5u);
  EXPECT_EQ(f.summary.at("stats").at("bugs"), 840u);
  EXPECT_EQ(f.summary.at("options").at("bug_traces"), 5u);
  EXPECT_NE(f.summary.at("warnings").dump().find("835 more bugs were found after the first 5"), std::string::npos)
      << f.summary.at("warnings").dump();
  EXPECT_NE(f.summary.at("summary").get<std::string>().find("840 bugs"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir() / "out" / "bug-5.trace"));
  EXPECT_FALSE(std::filesystem::exists(dir() / "out" / "bug-6.trace"));
  const auto refused = exocheck({"explore", "--bug-traces", "0", "--", cli_test::subject_path("election").string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
}

}  // namespace
}  // namespace exocheck::explore_test
