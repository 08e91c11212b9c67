// Bugs through `exocheck explore`: found, saved as traces that replay, warnings reported; and the
// report's shape (text summary line, --out folder, limits).

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "exocheck/wire/trace_file.hpp"
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

using cli_test::lines_of;

std::string last_line(const std::string& text) {
  const auto lines = lines_of(text);
  return lines.empty() ? std::string() : lines.back();
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// "dead letter <id> (...)" -> "<id>"
std::string message_id_of(const std::string& warning) {
  const std::size_t start = std::string("dead letter ").size();
  return warning.substr(start, warning.find(' ', start) - start);
}

TEST_F(ExploreTest, ClientServerAtomicityViolationIsFoundAndReplays) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto result = figures({"--workers", "2"}, "clientserver");
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  ASSERT_EQ(result.bugs, 1u);  // stops at the first bug
  const auto& bug = result.summary.at("bugs").at(0);
  EXPECT_EQ(bug.at("status"), "RUN_ASSERTION_FAILED");
  EXPECT_NE(bug.at("detail").get<std::string>().find("atomicity violation"), std::string::npos);
  const auto trace_path = dir() / bug.at("trace").get<std::string>();
  ASSERT_TRUE(std::filesystem::exists(trace_path));
  const auto timeline = read_text(dir() / "out" / "bug-1.txt");
  EXPECT_NE(timeline.find("atomicity violation"), std::string::npos) << timeline;
  EXPECT_EQ(wire::read_trace_file(trace_path).result().status(), proto::RUN_ASSERTION_FAILED);

  const auto replay = exocheck({"replay", trace_path.string()});
  EXPECT_EQ(replay.exit_code, 1) << replay.err;
  EXPECT_EQ(last_line(replay.out).rfind("Replay: reproduced", 0), 0u) << replay.out;
}

TEST_F(ExploreTest, ClientServerKeepGoingReportsTheDeadLetter) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto result = figures({"--workers", "2", "--keep-going"}, "clientserver");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(result.complete);
  EXPECT_GE(result.bugs, 1u);
  EXPECT_EQ(result.summary.at("bugs").size(), result.bugs);
  const auto& warnings = result.summary.at("warnings");
  ASSERT_FALSE(warnings.empty());
  for (const auto& warning : warnings) {
    EXPECT_EQ(warning.get<std::string>().rfind("dead letter ", 0), 0u) << warning;
  }
  // Each lost message is reported once, however many runs lose it.
  std::set<std::string> distinct;
  for (const auto& warning : warnings) distinct.insert(message_id_of(warning.get<std::string>()));
  EXPECT_EQ(distinct.size(), warnings.size());
}

TEST_F(ExploreTest, FixedClientServerIsCompleteWithoutBug) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto result = figures({"--workers", "2"}, "clientserver", {"--fixed"});
  EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.bugs, 0u);
}

TEST_F(ExploreTest, TextReportEndsWithTheSummaryLine) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto json = figures(
      {"--strategy", "systematic", "--workers", "1", "--reduction", "transdpor", "--no-sleep-sets"}, "registry");
  const auto text =
      exocheck({"explore", "--strategy", "systematic", "--workers", "1", "--reduction", "transdpor", "--no-sleep-sets",
                "--out", "text-out", "--", cli_test::subject_path("registry").string()});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(last_line(text.out),
            "Summary: complete, 10 paths, " + std::to_string(json.transitions) + " transitions, 6 classes, 0 bugs");
  EXPECT_NE(text.out.find("reduction transdpor, sleep sets off, heuristic fifo, workers 1"), std::string::npos)
      << text.out;
}

TEST_F(ExploreTest, OutFolderHoldsTheSummaryAndNoTemporaryFolder) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto result = figures({"--workers", "2"}, "registry");
  EXPECT_EQ(result.exit_code, 0);
  const auto saved = nlohmann::json::parse(read_text(dir() / "out" / "summary.json"), nullptr, false);
  ASSERT_FALSE(saved.is_discarded());
  EXPECT_EQ(saved.at("stats").at("paths"), result.paths);
  EXPECT_EQ(saved.at("summary"), result.summary.at("summary"));
  for (const auto& entry : std::filesystem::directory_iterator(dir().path())) {
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
  }
}

TEST_F(ExploreTest, MaxPathsStopsIncompleteWithExitThree) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto result = figures({"--workers", "2", "--reduction", "exhaustive", "--max-paths", "5"}, "registry");
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.paths + result.sleep_blocked, 5u);
  EXPECT_EQ(result.summary.at("summary").get<std::string>().rfind("Summary: incomplete, ", 0), 0u);
}

TEST_F(ExploreTest, TimeLimitStopsIncompleteWithExitThree) {
  if (!built("pi")) GTEST_SKIP() << "pi not built";
  // Exhaustive exploration of pi with 5 workers has far more paths than fit in 0.3 s.
  const auto result = figures({"--workers", "2", "--reduction", "exhaustive", "--no-sleep-sets", "--time-limit", "0.3"},
                              "pi", {"--workers", "5"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_FALSE(result.complete);
  EXPECT_GT(result.paths, 0u);
  EXPECT_EQ(result.summary.at("verdict"), "limit");
}

}  // namespace
}  // namespace exocheck::explore_test
