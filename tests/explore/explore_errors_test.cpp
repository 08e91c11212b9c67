// Bad input to `exocheck explore`: exit status 2, one line on stderr, nothing explored.

#include <filesystem>
#include <future>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

using cli_test::lines_of;

class ExploreErrors : public ExploreTest {
 protected:
  /// Expects exit 2 with exactly one stderr line containing `words`, and no --out folder.
  void expect_input_error(const cli_test::ProcessOutput& output, const std::string& words) const {
    EXPECT_EQ(output.exit_code, 2) << output.err;
    const auto lines = lines_of(output.err);
    ASSERT_EQ(lines.size(), 1u) << output.err;
    EXPECT_NE(lines.front().find(words), std::string::npos) << lines.front();
    EXPECT_TRUE(output.out.empty()) << output.out;
    EXPECT_FALSE(std::filesystem::exists(dir() / "out"));
  }
  cli_test::ProcessOutput explore_registry(const std::vector<std::string>& options) const {
    return explore(options, "registry");
  }
};

// Two explorations writing one --out folder at once (two runs in one directory, tests in
// parallel): each puts its folder in place, the last one wins, neither fails. Before, one of the
// two failed with "cannot rename ... Directory not empty" nearly every time.
TEST_F(ExploreErrors, TwoExplorationsWritingOneFolderAtOnceBothFinish) {
  const std::vector<std::string> args{"explore", "--workers", "1",  "--keep-going",
                                      "--out",   "shared",    "--", cli_test::subject_path("fault_kinds").string()};
  for (int round = 0; round < 5; ++round) {
    auto first = std::async(std::launch::async, [&] { return exocheck(args); });
    auto second = std::async(std::launch::async, [&] { return exocheck(args); });
    const auto one = first.get();
    const auto two = second.get();
    EXPECT_EQ(one.exit_code, 1) << one.err;
    EXPECT_EQ(two.exit_code, 1) << two.err;
  }
  EXPECT_TRUE(std::filesystem::exists(dir().path() / "shared" / "summary.json"));
}

TEST_F(ExploreErrors, NoSubject) {
  expect_input_error(exocheck({"explore", "--out", "out"}), "no subject given");
}

TEST_F(ExploreErrors, SubjectThatDoesNotExist) {
  expect_input_error(exocheck({"explore", "--out", "out", "--", (dir() / "no-such-subject").string()}), "cannot run");
}

TEST_F(ExploreErrors, SubjectNotLinkedWithTheHook) {
  if (!built("fault_not_linked")) GTEST_SKIP() << "fault_not_linked not built";
  expect_input_error(explore({"--workers", "2"}, "fault_not_linked"), "cannot run");
}

// A program built against an older exocheck's hook would read today's run requests without what
// it does not know (the monitors' lanes): refused, both versions named, never explored.
TEST_F(ExploreErrors, SubjectWhoseHookSpeaksAnOlderProtocol) {
  if (!built("fault_old_protocol")) GTEST_SKIP() << "fault_old_protocol not built";
  expect_input_error(explore({"--workers", "2"}, "fault_old_protocol"),
                     "carries an exocheck hook that speaks protocol version 1, this exocheck speaks version 2: "
                     "rebuild it against this exocheck's hook (exocheck::hook); nothing was run");
}

// A run whose events overflow the event buffer (made small here) meets a limit of exocheck's, not
// a bug of the program: exit 2, one line that says so and what to report, no bug, no report.
TEST_F(ExploreErrors, AnOverflowOfTheEventBufferIsExochecksFailureNotABug) {
  if (!built("pingpong")) GTEST_SKIP() << "pingpong not built";
  const auto output = cli_test::run_program(
      "env",
      {"EXOCHECK_EVENT_BUFFER_BYTES=65536", (cli_test::bin_dir() / "exocheck").string(), "explore", "--workers", "1",
       "--out", "out", "--", cli_test::subject_path("pingpong").string(), "--steps", "5000"},
      dir().path());
  expect_input_error(output, "exocheck failed: ");
  const auto line = lines_of(output.err).front();
  EXPECT_NE(line.find("exocheck failed: " + cli_test::subject_path("pingpong").string() +
                      ": events beyond the 65472 bytes of the event buffer after step "),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("This is a fault of exocheck, not of the program: please report it"), std::string::npos) << line;
}

// Arguments the subject refuses end it before its actors start: what it said is in the error, not
// only that it never said hello.
TEST_F(ExploreErrors, ArgumentsTheSubjectRefusesAreNamed) {
  if (!built("minesweeper")) GTEST_SKIP() << "minesweeper not built";
  expect_input_error(explore({"--workers", "1"}, "minesweeper", {"2", "3"}),
                     "its stderr ends: 'The following arguments were not expected: 3 2");
}

TEST_F(ExploreErrors, UnknownReduction) {
  expect_input_error(explore_registry({"--reduction", "odpor"}), "--reduction");
}

TEST_F(ExploreErrors, OptimalWithoutSleepSets) {
  expect_input_error(explore_registry({"--reduction", "optimal", "--no-sleep-sets"}), "always uses sleep sets");
  // The default reduction is optimal: turning sleep sets off alone says which reductions can.
  expect_input_error(explore_registry({"--no-sleep-sets"}),
                     "--no-sleep-sets needs --reduction dpor, transdpor or exhaustive");
}

TEST_F(ExploreErrors, SleepSetsAndNoSleepSetsTogether) {
  expect_input_error(explore_registry({"--sleep-sets", "--no-sleep-sets"}), "excludes");
}

TEST_F(ExploreErrors, ZeroWorkers) {
  expect_input_error(explore_registry({"--workers", "0"}), "--workers");
}

TEST_F(ExploreErrors, NonPositiveTimeLimit) {
  expect_input_error(explore_registry({"--time-limit", "0"}), "--time-limit: '0' is not a duration from 0.001 s");
  expect_input_error(explore_registry({"--time-limit", "-5m"}), "--time-limit: '-300' is not a duration");
}

TEST_F(ExploreErrors, CoordinatorWithLocalWorkers) {
  expect_input_error(explore_registry({"--coordinator", "localhost:1", "--workers", "2"}), "excludes");
}

TEST_F(ExploreErrors, CoordinatorThatDoesNotAnswer) {
  // Port 1 on loopback: nothing listens there, so the submission fails after its connect deadline.
  expect_input_error(explore_registry({"--coordinator", "127.0.0.1:1"}), "does not answer");
}

}  // namespace
}  // namespace exocheck::explore_test
