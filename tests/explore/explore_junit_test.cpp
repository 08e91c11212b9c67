// `explore --junit FILE`: JUnit XML valid against the format's schema (tests/explore/data/junit.xsd,
// checked by xmllint), a test case per check, a failure per bug with its replay command; and the
// summary's tool version, start time and command line.

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

std::size_t occurrences(const std::string& text, const std::string& piece) {
  std::size_t count = 0;
  for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + piece.size())) ++count;
  return count;
}

class ExploreJunit : public ExploreTest {
 protected:
  /// Explores with --junit, validates the file against the schema, returns its text.
  std::string junit_of(const std::vector<std::string>& options, const std::string& subject, int exit_code) const {
    std::vector<std::string> with{"--junit", "report.xml"};
    with.insert(with.end(), options.begin(), options.end());
    const auto result = figures(with, subject);
    EXPECT_EQ(result.exit_code, exit_code) << result.summary.dump(2);
    const auto schema = std::string(EXOCHECK_TEST_DATA_DIR) + "/junit.xsd";
    const auto valid = cli_test::run_program("xmllint", {"--noout", "--schema", schema, "report.xml"}, dir().path());
    EXPECT_EQ(valid.exit_code, 0) << valid.err;
    std::ifstream in(dir() / "report.xml");
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  static bool have_xmllint() { return std::system("command -v xmllint >/dev/null 2>&1") == 0; }
};

TEST_F(ExploreJunit, ABugIsAFailureWithItsReplayCommand) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  if (!have_xmllint()) GTEST_SKIP() << "xmllint is not installed (deploy/setup.sh installs libxml2-utils)";
  const auto xml = junit_of({"--workers", "1"}, "clientserver", 1);
  EXPECT_EQ(occurrences(xml, "<testcase "), 8u);
  EXPECT_EQ(occurrences(xml, "<failure "), 1u);
  EXPECT_NE(xml.find("type=\"RUN_ASSERTION_FAILED\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("replay: exocheck replay out/bug-1.trace"), std::string::npos) << xml;
  // Stopped at the first bug: the other checks were not explored to the end.
  EXPECT_EQ(occurrences(xml, "<skipped "), 7u);
  EXPECT_NE(xml.find("tests=\"8\" failures=\"1\" errors=\"0\" skipped=\"7\""), std::string::npos) << xml;
}

// One failure per distinct bug, with how many paths and classes hit it: serverreal's 43 failing
// classes are one check failing on other values; fault_kinds fails in 12 distinct ways.
TEST_F(ExploreJunit, EveryDistinctBugOfAKeepGoingExplorationIsAFailure) {
  if (!built("serverreal") || !built("fault_kinds")) GTEST_SKIP() << "serverreal or fault_kinds not built";
  if (!have_xmllint()) GTEST_SKIP() << "xmllint is not installed";
  const auto xml = junit_of({"--workers", "2", "--keep-going"}, "serverreal", 1);
  EXPECT_EQ(occurrences(xml, "<failure "), 1u);
  EXPECT_NE(xml.find("in Client handling Reply: inconsistent inventory: value &lt;n&gt; but the listed items are "
                     "worth &lt;n&gt;"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("in 43 classes"), std::string::npos) << xml;
  EXPECT_EQ(occurrences(xml, "<skipped "), 0u);
  EXPECT_NE(xml.find("tests=\"8\" failures=\"1\" errors=\"0\" skipped=\"0\""), std::string::npos) << xml;
  const auto kinds = junit_of({"--workers", "1", "--keep-going"}, "fault_kinds", 1);
  EXPECT_EQ(occurrences(kinds, "<failure "), 12u);
  EXPECT_NE(kinds.find("the race was won by delta, then gamma"), std::string::npos) << kinds;
}

TEST_F(ExploreJunit, ACompleteExplorationPassesEveryCheck) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  if (!have_xmllint()) GTEST_SKIP() << "xmllint is not installed";
  const auto xml = junit_of({"--workers", "2"}, "registry", 0);
  EXPECT_EQ(occurrences(xml, "<testcase "), 8u);
  EXPECT_EQ(occurrences(xml, "<failure "), 0u);
  EXPECT_EQ(occurrences(xml, "<skipped "), 0u);
}

TEST_F(ExploreJunit, TheSummarySaysWhichToolRanWhenAndHow) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto result = figures({"--workers", "1"}, "registry");
  const auto& summary = result.summary;
  EXPECT_EQ(summary.at("tool").at("name"), "exocheck");
  EXPECT_EQ(summary.at("tool").at("version"), EXOCHECK_TEST_TOOL_VERSION);
  EXPECT_TRUE(
      std::regex_match(summary.at("started_at").get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << summary.at("started_at");
  const auto& words = summary.at("command_line");
  ASSERT_GE(words.size(), 3u);
  EXPECT_EQ(words.at(1), "explore");
  EXPECT_EQ(words.back(), cli_test::subject_path("registry").string());
}

}  // namespace
}  // namespace exocheck::explore_test
