#include "explore_fixture.hpp"

#include <algorithm>
#include <filesystem>

namespace exocheck::explore_test {

bool ExploreTest::built(const std::string& subject) {
  return std::filesystem::exists(cli_test::subject_path(subject));
}

cli_test::ProcessOutput ExploreTest::explore(const std::vector<std::string>& options, const std::string& subject,
                                             const std::vector<std::string>& subject_args) const {
  std::vector<std::string> args{"explore"};
  args.insert(args.end(), options.begin(), options.end());
  if (std::find(options.begin(), options.end(), "--delivery") == options.end() &&
      std::find(options.begin(), options.end(), "--from") == options.end()) {
    args.insert(args.end(), delivery_.begin(), delivery_.end());
  }
  args.insert(args.end(), {"--json", "--out", "out", "--", cli_test::subject_path(subject).string()});
  args.insert(args.end(), subject_args.begin(), subject_args.end());
  return exocheck(args);
}

Figures ExploreTest::figures(const std::vector<std::string>& options, const std::string& subject,
                             const std::vector<std::string>& subject_args) const {
  const auto output = explore(options, subject, subject_args);
  Figures figures;
  figures.exit_code = output.exit_code;
  figures.summary = nlohmann::json::parse(output.out, nullptr, false);
  if (figures.summary.is_discarded()) {
    ADD_FAILURE() << "not JSON on stdout; stderr: " << output.err;
    return figures;
  }
  const auto& stats = figures.summary.at("stats");
  figures.paths = stats.at("paths").get<std::uint64_t>();
  figures.sleep_blocked = stats.at("sleep_blocked").get<std::uint64_t>();
  figures.transitions = stats.at("transitions").get<std::uint64_t>();
  figures.classes = stats.at("classes").get<std::uint64_t>();
  figures.bugs = stats.at("bugs").get<std::uint64_t>();
  figures.bug_paths = stats.at("bug_paths").get<std::uint64_t>();
  for (const auto& bug : figures.summary.at("bugs")) figures.failing_classes += bug.at("classes").get<std::uint64_t>();
  figures.complete = figures.summary.at("complete").get<bool>();
  return figures;
}

void ExploreTest::expect_correct(const std::string& subject, const std::vector<std::string>& args,
                                 std::uint64_t classes) const {
  if (!built(subject)) GTEST_SKIP() << subject << " not built";
  for (const char* reduction : {"transdpor", "exhaustive"}) {
    const auto result = figures({"--workers", "2", "--reduction", reduction}, subject, args);
    EXPECT_EQ(result.exit_code, 0) << reduction << "\n" << result.summary.dump(2);
    EXPECT_TRUE(result.complete) << reduction;
    EXPECT_EQ(result.bugs, 0u) << reduction;
    EXPECT_EQ(result.classes, classes) << reduction;
  }
}

void ExploreTest::expect_bug_replays(const Figures& result, const std::string& status,
                                     const std::vector<std::string>& details) const {
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  const auto& bug = result.summary.at("bugs").at(0);
  EXPECT_EQ(bug.at("status"), status);
  const auto detail = bug.at("detail").get<std::string>();
  for (const auto& piece : details) EXPECT_NE(detail.find(piece), std::string::npos) << detail;
  const auto trace_path = dir() / bug.at("trace").get<std::string>();
  const auto replay = exocheck({"replay", trace_path.string()});
  EXPECT_EQ(replay.exit_code, 1) << replay.err;
  EXPECT_NE(replay.out.find("Replay: reproduced " + status), std::string::npos) << replay.out;
}

}  // namespace exocheck::explore_test
