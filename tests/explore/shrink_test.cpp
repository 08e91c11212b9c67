// `exocheck shrink` on the subjects' bugs: a shorter schedule that fails the same way, saved as a
// trace that replays to the same verdict; and `trace diff` of a failing trace against its shrunk
// and a passing one.

#include "exocheck/wire/trace_file.hpp"
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

class Shrink : public ExploreTest {
 protected:
  /// The first bug's trace of exploring `subject` with one worker.
  std::filesystem::path first_bug(const std::string& subject, const std::vector<std::string>& args = {}) const {
    const auto result = figures({"--workers", "1"}, subject, args);
    EXPECT_EQ(result.exit_code, 1) << result.summary.dump(2);
    return dir() / result.summary.at("bugs").at(0).at("trace").get<std::string>();
  }

  /// Shrinks `trace` (with `subject` after '--' when given), checks the figures and that the
  /// shrunk trace replays to `status`; returns {steps before, steps after}.
  std::pair<std::uint64_t, std::uint64_t> expect_shrinks(const std::filesystem::path& trace, const std::string& status,
                                                         const std::vector<std::string>& subject = {}) const {
    const auto output = (dir() / (trace.stem().string() + ".min.trace")).string();
    std::vector<std::string> args{"shrink", trace.string(), "-o", output, "--json"};
    if (!subject.empty()) {
      args.push_back("--");
      args.insert(args.end(), subject.begin(), subject.end());
    }
    const auto shrunk = exocheck(args);
    EXPECT_EQ(shrunk.exit_code, 1) << shrunk.err;
    const auto report = nlohmann::json::parse(shrunk.out, nullptr, false);
    if (report.is_discarded()) {
      ADD_FAILURE() << shrunk.out << shrunk.err;
      return {0, 0};
    }
    EXPECT_EQ(report.at("status"), status);
    const auto before = report.at("steps_before").get<std::uint64_t>(),
               after = report.at("steps_after").get<std::uint64_t>();
    EXPECT_LE(after, before);
    EXPECT_EQ(report.at("removed").get<std::uint64_t>(), before - after);
    EXPECT_EQ(wire::read_trace_file(output).events_size(), static_cast<int>(after + 1));
    std::vector<std::string> replay{"replay", output};
    if (!subject.empty()) {
      replay.push_back("--");
      replay.insert(replay.end(), subject.begin(), subject.end());
    }
    const auto replayed = exocheck(replay);
    EXPECT_EQ(replayed.exit_code, 1) << replayed.err;
    EXPECT_NE(replayed.out.find("Replay: reproduced " + status), std::string::npos) << replayed.out;
    return {before, after};
  }
};

TEST_F(Shrink, ClientServerKeepsOnlyTheStepsTheViolationNeeds) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto [before, after] = expect_shrinks(first_bug("clientserver"), "RUN_ASSERTION_FAILED");
  EXPECT_EQ(before, 5u);
  EXPECT_EQ(after, 5u) << "every step of the atomicity violation is needed";
}

// A deadlock is declared only once nothing is enabled: every delivery the run makes is part of it,
// so these first-found deadlocks are as short as they get.
TEST_F(Shrink, DeadlocksKeepEveryDeliveryOfTheirRun) {
  struct Case {
    const char* subject;
    std::uint64_t steps;
  };
  for (const Case c : {Case{"diningphil", 9}, Case{"futures-deadlock", 6}}) {
    if (!built(c.subject)) GTEST_SKIP() << c.subject << " not built";
    SCOPED_TRACE(c.subject);
    const auto [before, after] = expect_shrinks(first_bug(c.subject), "RUN_DEADLOCK");
    EXPECT_EQ(before, c.steps);
    EXPECT_EQ(after, c.steps);
  }
}

TEST_F(Shrink, LeErlangTwoLeadersLosesElevenStepsAndStillElectsTwo) {
  if (!built("le-erlang")) GTEST_SKIP() << "le-erlang not built";
  const std::string trace = std::string(EXOCHECK_TEST_DATA_DIR) + "/le-erlang-two-leaders.trace";
  const auto [before, after] =
      expect_shrinks(trace, "RUN_ASSERTION_FAILED",
                     {cli_test::subject_path("le-erlang").string(), "--nodes", "3", "--failures", "3", "--fifo"});
  EXPECT_EQ(before, 78u);
  EXPECT_EQ(after, 67u);
}

TEST_F(Shrink, ExploreShrinksEveryBugItSaves) {
  if (!built("serverreal")) GTEST_SKIP() << "serverreal not built";
  const auto result = figures({"--workers", "2", "--keep-going", "--max-paths", "200", "--shrink"}, "serverreal");
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  ASSERT_GE(result.summary.at("bugs").size(), 1u);
  for (const auto& bug : result.summary.at("bugs")) {
    ASSERT_TRUE(bug.contains("shrunk_trace")) << bug;
    const auto shrunk = wire::read_trace_file(dir() / bug.at("shrunk_trace").get<std::string>());
    const auto original = wire::read_trace_file(dir() / bug.at("trace").get<std::string>());
    EXPECT_EQ(bug.at("shrunk_steps").get<int>(), shrunk.events_size() - 1);
    EXPECT_LE(shrunk.events_size(), original.events_size());
    EXPECT_EQ(shrunk.result().status(), original.result().status());
  }
}

TEST_F(Shrink, APassingTraceIsAnInputError) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto run = exocheck({"run", "--", cli_test::subject_path("registry").string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto shrunk = exocheck({"shrink", "exocheck-run.trace"});
  EXPECT_EQ(shrunk.exit_code, 2);
  EXPECT_NE(shrunk.err.find("completed without a bug: nothing to shrink"), std::string::npos) << shrunk.err;
}

TEST_F(Shrink, TraceDiffSaysWhereAFailingAndAPassingRunPart) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto failing = first_bug("clientserver");
  const auto run = exocheck({"run", "--out", "passing.trace", "--", cli_test::subject_path("clientserver").string()});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto diff = exocheck({"trace", "diff", failing.string(), "passing.trace", "--json"});
  EXPECT_EQ(diff.exit_code, 1) << diff.err;
  const auto report = nlohmann::json::parse(diff.out, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << diff.out;
  const auto a = wire::read_trace_file(failing), b = wire::read_trace_file(dir() / "passing.trace");
  std::size_t same = 0;
  while (same + 1 < static_cast<std::size_t>(std::min(a.events_size(), b.events_size())) &&
         a.events(static_cast<int>(same + 1)).message() == b.events(static_cast<int>(same + 1)).message()) {
    ++same;
  }
  EXPECT_EQ(report.at("same_steps").get<std::size_t>(), same);
  EXPECT_EQ(report.at("parted_at").get<std::size_t>(), same + 1);
  EXPECT_EQ(report.at("a").at("status"), "RUN_ASSERTION_FAILED");
  EXPECT_EQ(report.at("b").at("status"), "RUN_COMPLETED");
  EXPECT_FALSE(report.at("same_result").get<bool>());
  // Every delivery after the parting is listed once, in one of the three lists.
  const std::size_t listed =
      report.at("only_in_a").size() + report.at("only_in_b").size() + report.at("elsewhere").size();
  EXPECT_GE(listed, 1u);
  const auto text = exocheck({"trace", "diff", failing.string(), "passing.trace"});
  EXPECT_NE(text.out.find("They part at step " + std::to_string(same + 1) + ": A delivers "), std::string::npos)
      << text.out;
  const auto itself = exocheck({"trace", "diff", failing.string(), failing.string()});
  EXPECT_EQ(itself.exit_code, 0) << itself.out;
}

}  // namespace
}  // namespace exocheck::explore_test
