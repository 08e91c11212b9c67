// Runs that do not end: `exocheck explore` never calls an exploration complete when a run was cut
// at the step limit (exit 3, the summary says how many and at what limit), and --check termination
// turns such a run into a bug with a trace that replays.
#include <algorithm>
#include <filesystem>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, ARunCutAtTheStepLimitMakesTheExplorationBoundedNotComplete) {
  if (!built("pingpong")) GTEST_SKIP() << "pingpong not built";
  const auto f = figures({"--strategy", "systematic", "--step-limit", "100"}, "pingpong", {"--steps=1000"});
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

// Optimal DPOR's wakeup trees past their budget: sequences cut short, the exploration bounded and
// saying why; within it (the default), the same program is explored completely.
TEST_F(ExploreTest, WakeupTreesPastTheirBudgetMakeTheExplorationBoundedNotComplete) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto f = figures({"--wakeup-budget", "1", "--workers", "1"}, "registry", {"--workers=3"});
  EXPECT_EQ(f.exit_code, 3) << f.summary.dump(2);
  EXPECT_FALSE(f.complete);
  EXPECT_GT(f.summary.at("stats").at("cut_for_memory").get<std::uint64_t>(), 0u);
  EXPECT_EQ(f.summary.at("stats").at("analysed_in_part"), 0);
  EXPECT_EQ(f.summary.at("options").at("wakeup_budget"), 1);
  EXPECT_LE(f.summary.at("stats").at("classes").get<std::uint64_t>(), 24u);
  const auto warnings = f.summary.at("warnings").dump();
  EXPECT_NE(warnings.find("the wakeup trees held their budget (1 events, --wakeup-budget)"), std::string::npos)
      << warnings;
  const auto whole = figures({"--workers", "1"}, "registry", {"--workers=3"});
  EXPECT_EQ(whole.exit_code, 0) << whole.summary.dump(2);
  EXPECT_EQ(whole.summary.at("stats").at("classes"), 24);
  EXPECT_EQ(whole.summary.at("stats").at("cut_for_memory"), 0);
  EXPECT_EQ(whole.summary.at("options").at("wakeup_budget"), 250000);
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

// Where most paths fail, a report per path would say nothing more than one per distinct bug: the
// election's 840 failing paths are one check ("two leaders in term <n>") failing on other values
// (checked by its judge actor, which lets every failing run go on to its end).
TEST_F(ExploreTest, KeepGoingReportsEachDistinctBugOnceWithItsCounts) {
  if (!built("election")) GTEST_SKIP() << "election not built";
  const auto f = figures({"--strategy", "systematic", "--keep-going", "--workers", "1"}, "election", {"--judge-actor"});
  ASSERT_EQ(f.exit_code, 1) << f.summary.dump(2);
  EXPECT_TRUE(f.complete);
  EXPECT_EQ(f.bugs, 1u);
  EXPECT_EQ(f.bug_paths, 840u);
  const auto& bug = f.summary.at("bugs").at(0);
  EXPECT_EQ(bug.at("paths"), 840u);
  EXPECT_EQ(bug.at("classes"), 840u);
  EXPECT_EQ(bug.at("headline"), "assertion failed: in Judge handling Elected: two leaders in term <n>: <n> and <n>");
  EXPECT_EQ(bug.at("signature").at("actor_type"), "Judge");
  EXPECT_EQ(bug.at("steps"), 16u);  // the shortest of the 840
  EXPECT_NE(f.summary.at("summary").get<std::string>().find("2328 classes, 1 bugs"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir() / "out" / "bug-2.trace"));
}

// Traces are kept for the first --bug-traces distinct bugs, the others counted; --max-bugs stops
// the exploration once it has found that many (fault_kinds: 12 distinct, one class each).
TEST_F(ExploreTest, KeepGoingKeepsTheTracesOfTheFirstDistinctBugsAndStopsAtMaxBugs) {
  if (!built("fault_kinds")) GTEST_SKIP() << "fault_kinds not built";
  const auto f =
      figures({"--strategy", "systematic", "--keep-going", "--workers", "1", "--bug-traces", "5"}, "fault_kinds");
  ASSERT_EQ(f.exit_code, 1) << f.summary.dump(2);
  EXPECT_TRUE(f.complete);
  EXPECT_EQ(f.bugs, 12u);
  EXPECT_EQ(f.bug_paths, 12u);
  EXPECT_EQ(f.summary.at("bugs").size(), 12u);
  EXPECT_EQ(f.summary.at("options").at("bug_traces"), 5u);
  EXPECT_NE(f.summary.at("warnings").dump().find("7 more distinct bugs were found after the first 5"),
            std::string::npos)
      << f.summary.at("warnings").dump();
  EXPECT_TRUE(std::filesystem::exists(dir() / "out" / "bug-5.trace"));
  EXPECT_FALSE(std::filesystem::exists(dir() / "out" / "bug-6.trace"));
  EXPECT_TRUE(f.summary.at("bugs").at(5).at("trace").is_null());
  EXPECT_EQ(f.summary.at("bugs").at(5).at("paths"), 1u);
  const auto three = figures({"--strategy", "systematic", "--max-bugs", "3", "--workers", "1"}, "fault_kinds");
  EXPECT_EQ(three.exit_code, 1) << three.summary.dump(2);
  EXPECT_FALSE(three.complete);
  EXPECT_EQ(three.bugs, 3u);
  EXPECT_EQ(three.summary.at("options").at("max_bugs"), 3u);
  EXPECT_EQ(three.summary.at("options").at("keep_going"), true);  // implied
  const auto refused_max =
      exocheck({"explore", "--max-bugs", "-1", "--", cli_test::subject_path("fault_kinds").string()});
  EXPECT_EQ(refused_max.exit_code, 2) << refused_max.out << refused_max.err;
  const auto refused = exocheck({"explore", "--bug-traces", "0", "--", cli_test::subject_path("election").string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
}

// Where every path fails (minesweeper deadlocks on all of them), a time limit holds for the whole
// command: the exploration stops, shrinking does not start past it, and what is written is one
// distinct bug's trace and timeline beside the summary, whatever the paths.
TEST_F(ExploreTest, ATimeLimitHoldsWhereEveryPathFailsShrinkingIncluded) {
  if (!built("minesweeper")) GTEST_SKIP() << "minesweeper not built";
  const auto f = figures({"--strategy", "systematic", "--reduction", "exhaustive", "--no-sleep-sets", "--keep-going",
                          "--shrink", "--time-limit", "1s", "--workers", "2"},
                         "minesweeper");
  ASSERT_EQ(f.exit_code, 1) << f.summary.dump(2);
  EXPECT_FALSE(f.complete);
  EXPECT_EQ(f.bugs, 1u);
  EXPECT_EQ(f.bug_paths, f.paths);
  EXPECT_GT(f.paths, 100u);
  EXPECT_NE(f.summary.at("warnings").dump().find("1 bug was not shrunk to the end: --time-limit came first"),
            std::string::npos)
      << f.summary.at("warnings").dump();
  std::vector<std::string> written;
  for (const auto& entry : std::filesystem::directory_iterator(dir() / "out")) {
    written.push_back(entry.path().filename().string());
  }
  std::sort(written.begin(), written.end());
  EXPECT_EQ(written, (std::vector<std::string>{"bug-1.trace", "bug-1.txt", "summary.json"}));
}

}  // namespace
}  // namespace exocheck::explore_test
