// `exocheck explore --strategy portfolio` on the real subjects: the systematic exploration with
// seeded random walks and PCT runs beside it. Complete only as the systematic strategy is, with its
// figures; bugs from either part, their traces replayed (a job's: tests/distributed/cli_remote_test.cpp).
#include <algorithm>
#include <filesystem>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, APortfolioCompletesTheRegistryWithTheSystematicFigures) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto systematic = figures({"--workers", "1"}, "registry", {"--workers=4"});
  const auto mixed = figures({"--strategy", "portfolio", "--seed", "4", "--workers", "1"}, "registry", {"--workers=4"});
  EXPECT_EQ(mixed.exit_code, 0) << mixed.summary.dump(2);
  EXPECT_TRUE(mixed.complete);
  EXPECT_EQ(mixed.classes, 24u * 5);
  EXPECT_EQ(mixed.paths, systematic.paths);
  EXPECT_EQ(mixed.classes, systematic.classes);
  // Turns of 16: as many sampled runs as systematic ones, give or take a turn.
  const auto sampled = mixed.summary.at("stats").at("sampled_runs").get<std::uint64_t>();
  EXPECT_GE(sampled + 16, mixed.paths);
  EXPECT_LE(sampled, mixed.paths + 16);
  EXPECT_EQ(mixed.summary.at("options").at("strategy"), "portfolio");
  EXPECT_EQ(mixed.summary.at("options").at("seed"), 4);
  EXPECT_EQ(mixed.summary.at("summary"), "Summary: complete, " + std::to_string(mixed.paths) + " paths, " +
                                             std::to_string(mixed.transitions) + " transitions, 120 classes, 0 bugs (" +
                                             std::to_string(sampled) + " sampled runs beside)");
}

TEST_F(ExploreTest, APortfolioFindsWhatDepthFirstFindsLateAndItsTraceReplays) {
  if (!built("le-erlang")) GTEST_SKIP() << "le-erlang not built";
  // Depth first meets the two leaders after more than 100,000 paths (tests/bench/runs_to_bug.py);
  // with one worker the portfolio's runs come in a fixed order, so the bugs it finds are exact.
  const auto found =
      figures({"--strategy", "portfolio", "--seed", "6", "--workers", "1", "--max-bugs", "3", "--time-limit", "120"},
              "le-erlang", {"--nodes", "3", "--failures", "3", "--fifo"});
  ASSERT_EQ(found.exit_code, 1) << found.summary.dump(2);
  EXPECT_FALSE(found.complete);
  const auto& bugs = found.summary.at("bugs");
  const auto two_leaders = std::find_if(bugs.begin(), bugs.end(), [](const auto& bug) {
    return bug.at("detail").template get<std::string>().find("two leaders") != std::string::npos;
  });
  ASSERT_NE(two_leaders, bugs.end()) << found.summary.dump(2);
  EXPECT_EQ(two_leaders->at("status"), "RUN_ASSERTION_FAILED");
  EXPECT_EQ(two_leaders->at("found_by"), "pos");  // the first to find it; a shorter run came later
  EXPECT_LT(two_leaders->at("found_at_run").template get<std::uint64_t>(), 2000u);
  const auto replay = exocheck({"replay", (dir() / two_leaders->at("trace").template get<std::string>()).string()});
  EXPECT_EQ(replay.exit_code, 1) << replay.err;
  EXPECT_NE(replay.out.find("two leaders"), std::string::npos) << replay.out;
}

TEST_F(ExploreTest, APortfolioIsRefusedWithTheSampledFlags) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto refused = [&](const std::vector<std::string>& options, const std::string& message) {
    std::vector<std::string> args{"explore", "--strategy", "portfolio"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {"--", (std::filesystem::path(EXOCHECK_BIN_DIR) / "registry").string()});
    const auto result = exocheck(args);
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
  };
  refused({"--runs", "3"}, "--runs needs --strategy random, pct or pos");
  refused({"--depth", "2"}, "--depth needs --strategy pct");
}

}  // namespace
}  // namespace exocheck::explore_test
