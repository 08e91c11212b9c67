// `exocheck explore --strategy random|pct` on the real subjects: seeded runs whose figures a seed
// fixes (whatever the number of workers), bugs saved as traces that replay without the seed, and
// the flags that do not go together.
#include <algorithm>
#include <filesystem>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, RandomWalksOnTheRegistryHitEveryClassAndTheReportNamesTheSeed) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto result =
      figures({"--strategy", "random", "--seed", "7", "--runs", "300", "--workers", "2"}, "registry", {"--workers=3"});
  EXPECT_EQ(result.exit_code, 3) << result.summary.dump(2);  // no bug, and a sample is never complete
  EXPECT_EQ(result.paths, 300u);
  EXPECT_EQ(result.classes, 24u);  // all of them: transdpor explores 24
  EXPECT_EQ(result.sleep_blocked, 0u);
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.summary.at("options").at("strategy"), "random");
  EXPECT_EQ(result.summary.at("options").at("seed"), 7);
  EXPECT_EQ(result.summary.at("summary"), "Summary: sampled, 300 runs hit 24 distinct classes, 0 bugs");
}

TEST_F(ExploreTest, ASeedFixesThePctRunsWhateverTheWorkers) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const std::vector<std::string> options{"--strategy", "pct", "--seed", "9", "--runs", "200"};
  auto one = options;
  one.insert(one.end(), {"--workers", "1"});
  auto two = options;
  two.insert(two.end(), {"--workers", "2"});
  const auto alone = figures(one, "registry", {"--workers=3"});
  const auto together = figures(two, "registry", {"--workers=3"});
  EXPECT_EQ(alone.classes, 24u);
  EXPECT_EQ(together.classes, alone.classes);
  EXPECT_EQ(together.paths, 200u);
  EXPECT_EQ(alone.summary.at("options").at("pct_depth"), 3);
}

TEST_F(ExploreTest, PctAndRandomWalksFindTheDeadlocksAndTheirTracesReplay) {
  if (!built("le-erlang") || !built("diningphil")) GTEST_SKIP() << "le-erlang or diningphil not built";
  // One worker: the runs end in their order, so the run that found the bug is exact.
  const auto le_pct =
      figures({"--strategy", "pct", "--seed", "1", "--workers", "1"}, "le-erlang", {"--nodes", "3", "--failures", "3"});
  expect_bug_replays(le_pct, "RUN_DEADLOCK", {"WhoIsLeader"});
  EXPECT_EQ(le_pct.summary.at("bugs").at(0).at("found_at_run"), 80);
  const auto le_random = figures({"--strategy", "random", "--seed", "1", "--workers", "1"}, "le-erlang",
                                 {"--nodes", "3", "--failures", "3"});
  expect_bug_replays(le_random, "RUN_DEADLOCK", {"WhoIsLeader"});
  EXPECT_EQ(le_random.summary.at("bugs").at(0).at("found_at_run"), 12);
  const auto dining = figures({"--strategy", "pct", "--seed", "1", "--workers", "1"}, "diningphil");
  expect_bug_replays(dining, "RUN_DEADLOCK", {});
  EXPECT_EQ(dining.summary.at("bugs").at(0).at("found_at_run"), 7);
  EXPECT_EQ(dining.paths, 7u);  // stops at the first bug
}

TEST_F(ExploreTest, PctFindsLeErlangsTwoLeadersInTenRunsWhereDepthFirstTakesOver100000Paths) {
  if (!built("le-erlang")) GTEST_SKIP() << "le-erlang not built";
  // Depth first (TransDPOR, sleep sets, one worker) meets it at path 142,688
  // (tests/bench/runs_to_bug.py); PCT's seed 6 at run 10, its schedule saved and replayed.
  const auto found = figures({"--strategy", "pct", "--seed", "6", "--runs", "10", "--keep-going", "--workers", "1"},
                             "le-erlang", {"--nodes", "3", "--failures", "3", "--fifo"});
  ASSERT_EQ(found.exit_code, 1) << found.summary.dump(2);
  const auto& bugs = found.summary.at("bugs");
  const auto two_leaders = std::find_if(bugs.begin(), bugs.end(), [](const auto& bug) {
    return bug.at("detail").template get<std::string>().find("two leaders") != std::string::npos;
  });
  ASSERT_NE(two_leaders, bugs.end()) << found.summary.dump(2);
  EXPECT_EQ(two_leaders->at("status"), "RUN_ASSERTION_FAILED");
  EXPECT_EQ(two_leaders->at("found_at_run"), 10);
  const auto replay = exocheck({"replay", (dir() / two_leaders->at("trace").template get<std::string>()).string()});
  EXPECT_EQ(replay.exit_code, 1) << replay.err;
  EXPECT_NE(replay.out.find("two leaders"), std::string::npos) << replay.out;
}

TEST_F(ExploreTest, SampledStrategyFlagsThatDoNotGoTogetherAreRefused) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto refused = [&](const std::vector<std::string>& options, const std::string& message) {
    std::vector<std::string> args{"explore"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--", (std::filesystem::path(EXOCHECK_BIN_DIR) / "registry").string()});
    const auto result = exocheck(args);
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
  };
  refused({"--strategy", "systematic", "--seed", "3"}, "--seed needs --strategy random, pct, pos or portfolio");
  refused({"--runs", "3"}, "--runs needs --strategy random, pct or pos");
  refused({"--strategy", "random", "--depth", "2"}, "--depth needs --strategy pct");
  refused({"--strategy", "pct", "--max-paths", "5"}, "the number of runs is --runs");
  refused({"--strategy", "sometimes"}, "sometimes");
  const std::string budget = "--wakeup-budget bounds optimal DPOR's wakeup trees: it needs --reduction optimal";
  refused({"--reduction", "transdpor", "--wakeup-budget", "10"}, budget);
  refused({"--strategy", "random", "--wakeup-budget", "10"}, budget);
}

}  // namespace
}  // namespace exocheck::explore_test
