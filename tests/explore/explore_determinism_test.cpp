// `exocheck explore --check determinism` on the real subjects: the guarded-command paper's
// Example 5 (x = 4 and x = 5 both reachable) and the futures whose lock order decides the
// balance; each finding names both final states, saves both traces, and its trace replays.

#include <regex>
#include <set>

#include "exocheck/wire/trace_file.hpp"
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

using ExploreDeterminism = ExploreTest;

/// The x of every "0.1: x=N ..." line in `text`.
std::set<int> final_xs(const std::string& text) {
  static const std::regex x_value(R"(0\.1: x=(-?[0-9]+) )");
  std::set<int> xs;
  for (std::sregex_iterator it(text.begin(), text.end(), x_value), end; it != end; ++it) {
    xs.insert(std::stoi((*it)[1]));
  }
  return xs;
}

TEST_F(ExploreDeterminism, GuardedCommandsReachXEqualToFourAndToFive) {
  if (!built("gcl-determinism")) GTEST_SKIP() << "gcl-determinism not built";
  for (const char* reduction : {"exhaustive", "dpor", "transdpor"}) {
    const auto result = figures({"--workers", "2", "--reduction", reduction, "--check", "determinism", "--keep-going"},
                                "gcl-determinism");
    EXPECT_EQ(result.exit_code, 1) << reduction << "\n" << result.summary.dump(2);
    EXPECT_TRUE(result.complete) << reduction;
    EXPECT_EQ(result.classes, 6u) << reduction;
    // Final x is 2, 3, 4 or 5: the first path's state and one finding for each of the 3 others.
    ASSERT_EQ(result.bugs, 3u) << reduction;
    std::string details;
    for (const auto& bug : result.summary.at("bugs")) {
      EXPECT_EQ(bug.at("status"), "RUN_NONDETERMINISTIC");
      EXPECT_FALSE(bug.at("reference_trace").is_null());
      details += bug.at("detail").get<std::string>() + "\n";
    }
    EXPECT_EQ(final_xs(details), (std::set<int>{2, 3, 4, 5})) << details;
  }
}

TEST_F(ExploreDeterminism, WithoutTheCheckGuardedCommandsHaveNoBug) {
  if (!built("gcl-determinism")) GTEST_SKIP() << "gcl-determinism not built";
  const auto result = figures({"--workers", "2"}, "gcl-determinism");
  EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
  EXPECT_EQ(result.bugs, 0u);
  EXPECT_EQ(result.classes, 6u);
}

TEST_F(ExploreDeterminism, LockOrderDecidesTheBalanceAndBothTracesReplay) {
  if (!built("futures-datarace")) GTEST_SKIP() << "futures-datarace not built";
  const auto result = figures({"--workers", "2", "--check", "determinism"}, "futures-datarace");
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  ASSERT_EQ(result.bugs, 1u);
  const auto& bug = result.summary.at("bugs").at(0);
  EXPECT_EQ(bug.at("status"), "RUN_NONDETERMINISTIC");
  const auto detail = bug.at("detail").get<std::string>();
  EXPECT_NE(detail.find("0.2: balance=5"), std::string::npos) << detail;
  EXPECT_NE(detail.find("0.2: balance=8"), std::string::npos) << detail;
  // The two traces end in the two balances, and each replays to its own.
  std::set<std::string> balances;
  for (const char* trace : {"trace", "reference_trace"}) {
    const auto path = dir() / bug.at(trace).get<std::string>();
    const auto result = wire::read_trace_file(path).result();
    EXPECT_EQ(result.status(), proto::RUN_COMPLETED) << trace;
    for (const auto& line : result.final_state()) {
      if (line.starts_with("0.2: ")) balances.insert(line);
    }
    const auto replay = exocheck({"replay", path.string()});
    EXPECT_EQ(replay.exit_code, 0) << trace << "\n" << replay.out << replay.err;
    EXPECT_NE(replay.out.find("Replay: reproduced RUN_COMPLETED"), std::string::npos) << replay.out;
  }
  EXPECT_EQ(balances, (std::set<std::string>{"0.2: balance=5", "0.2: balance=8"}));
}

TEST_F(ExploreDeterminism, FixedFuturesEndWithOneBalance) {
  // Still 2 classes: the order of the two Gets at the doubling future (Main's and the adder's).
  if (!built("futures-datarace")) GTEST_SKIP() << "futures-datarace not built";
  for (const char* reduction : {"exhaustive", "transdpor"}) {
    const auto result = figures({"--workers", "2", "--reduction", reduction, "--check", "determinism"},
                                "futures-datarace", {"--fixed"});
    EXPECT_EQ(result.exit_code, 0) << reduction << "\n" << result.summary.dump(2);
    EXPECT_TRUE(result.complete) << reduction;
    EXPECT_EQ(result.bugs, 0u) << reduction;
    EXPECT_EQ(result.classes, 2u) << reduction;
  }
}

}  // namespace
}  // namespace exocheck::explore_test
