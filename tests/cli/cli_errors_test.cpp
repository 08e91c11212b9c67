// Bad arguments and bad files: one clear line on stderr, exit status 2, nothing on stdout.
// Also `trace show` and --help, which need no subject.

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include <fstream>

#include "cli_fixture.hpp"
#include "exocheck/agent/timeline.hpp"
#include "sample_traces.hpp"

namespace exocheck::cli_test {
namespace {

class CliErrors : public CliTest {
 protected:
  /// Expects exit 2 with exactly one stderr line that contains `words`.
  void expect_input_error(const std::vector<std::string>& args, const std::string& words) {
    const auto output = exocheck(args);
    EXPECT_EQ(output.exit_code, 2) << output.out << output.err;
    EXPECT_EQ(lines_of(output.err).size(), 1u) << output.err;
    EXPECT_EQ(output.err.rfind("exocheck: error: ", 0), 0u) << output.err;
    EXPECT_NE(output.err.find(words), std::string::npos) << output.err;
    EXPECT_EQ(output.out, "");
  }

  void put_bytes(const std::string& file, const std::string& bytes) const {
    std::ofstream(dir() / file, std::ios::binary) << bytes;
  }

  std::string registry() const { return subject_path("registry").string(); }
};

TEST_F(CliErrors, TraceShowOfANonTraceFile) {
  put_bytes("notes.txt", "just some notes\n");
  expect_input_error({"trace", "show", "notes.txt"},
                     "'notes.txt' is not an exocheck trace file (it does not start with \"EXOTRACE\")");
}

TEST_F(CliErrors, TraceShowOfATruncatedFile) {
  wire::write_trace_file(dir() / "full.trace", sample_trace());
  std::ifstream in(dir() / "full.trace", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  put_bytes("cut.trace", bytes.substr(0, bytes.size() / 2));
  expect_input_error({"trace", "show", "cut.trace"}, "trace file 'cut.trace' is truncated");
}

TEST_F(CliErrors, TraceShowOfAMissingFile) {
  expect_input_error({"trace", "show", "absent.trace"},
                     "cannot read trace file 'absent.trace': No such file or directory");
}

TEST_F(CliErrors, ReplayOfABadFile) {
  put_bytes("notes.txt", "just some notes\n");
  expect_input_error({"replay", "notes.txt"}, "'notes.txt' is not an exocheck trace file");
}

TEST_F(CliErrors, UnknownHeuristic) {
  expect_input_error({"run", "--heuristic", "random", "--", registry()},
                     "--heuristic: random not in {fifo,lifo,eca,lca,ldm,hdm}");
}

TEST_F(CliErrors, MalformedPrefixNamesTheBadId) {
  expect_input_error({"run", "--prefix", "env#1,,0#2", "--", registry()}, "--prefix: '' is not a message id");
  expect_input_error({"run", "--prefix", "worker#1", "--", registry()}, "--prefix: 'worker#1' is not a message id");
  expect_input_error({"run", "--prefix", "0#0", "--", registry()}, "--prefix: '0#0' is not a message id");
  expect_input_error({"run", "--prefix", "0.#1", "--", registry()}, "--prefix: '0.#1' is not a message id");
}

TEST_F(CliErrors, MissingSubject) {
  expect_input_error({"run"}, "run: no subject given; put it after '--'");
  expect_input_error({"run", "--"}, "run: no subject given; put it after '--'");
  expect_input_error({"run", registry()}, "run: unexpected argument '" + registry() + "'");
}

TEST_F(CliErrors, MalformedOptionValues) {
  expect_input_error({"run", "--step-limit", "many", "--", registry()}, "--step-limit");
  expect_input_error({"run", "--step-limit", "-3", "--", registry()}, "--step-limit");
  expect_input_error({"run", "--timeout", "0", "--", registry()}, "--timeout");
  expect_input_error({"run", "--bogus", "--", registry()}, "unexpected argument '--bogus'");
  expect_input_error({"trace", "show", "--bogus", "x.trace"}, "--bogus");
}

TEST_F(CliErrors, DurationsAreSecondsOrCarryAUnit) {
  for (const char* timeout : {"2", "2.5", "500ms", "2s", "1m", "1h"}) {
    const auto output = exocheck({"run", "--timeout", timeout, "--out", "d.trace", "--", registry(), "--workers", "2"});
    EXPECT_EQ(output.exit_code, 0) << timeout << ": " << output.err;
  }
  expect_input_error({"run", "--timeout", "0", "--", registry()},
                     "--timeout: '0' is not a duration from 0.001 s to 86400 s: a number of seconds or one with a "
                     "unit (500ms, 90s, 5m, 1h)");
  expect_input_error({"run", "--timeout", "2d", "--", registry()}, "--timeout: d unit not recognized");
  expect_input_error({"run", "--timeout", "25h", "--", registry()}, "to 86400 s");
}

TEST_F(CliErrors, MissingSubcommand) {
  expect_input_error({}, "A subcommand is required");
  expect_input_error({"trace"}, "A subcommand is required");
  expect_input_error({"launch"}, "unexpected: launch");
}

TEST_F(CliErrors, TraceShowTakesNoSubject) {
  wire::write_trace_file(dir() / "t.trace", sample_trace());
  expect_input_error({"trace", "show", "t.trace", "--", registry()}, "trace show: takes no subject after '--'");
}

TEST_F(CliErrors, SubjectThatCannotBeLaunchedIsAnInputErrorAndSavesNothing) {
  expect_input_error({"run", "--out", "x.trace", "--", "/no/such/subject"}, "cannot run '/no/such/subject': ");
  EXPECT_FALSE(std::filesystem::exists(dir() / "x.trace"));
}

TEST_F(CliErrors, ProgramWithoutTheHookIsAnInputError) {
  expect_input_error({"run", "--out", "x.trace", "--", "/bin/true"}, "cannot run '/bin/true': ");
  EXPECT_FALSE(std::filesystem::exists(dir() / "x.trace"));
}

TEST_F(CliErrors, TraceThatCannotBeSavedIsAnInputErrorAfterTheTimeline) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto output = exocheck({"run", "--out", "missing/r.trace", "--", registry()});
  EXPECT_EQ(output.exit_code, 2);
  EXPECT_NE(output.out.find("Result: completed (RUN_COMPLETED)"), std::string::npos) << output.out;
  const auto lines = lines_of(output.err);
  ASSERT_EQ(lines.size(), 1u) << output.err;
  EXPECT_EQ(lines[0].rfind("exocheck: error: cannot write trace file 'missing/r.trace': cannot create "
                           "'missing/r.trace.tmp-",
                           0),
            0u)
      << lines[0];
  EXPECT_TRUE(lines[0].ends_with("': No such file or directory")) << lines[0];
}

class TraceShow : public CliTest {};

TEST_F(TraceShow, PrintsTheTimeline) {
  wire::write_trace_file(dir() / "t.trace", sample_trace());
  const auto output = exocheck({"trace", "show", "t.trace"});
  EXPECT_EQ(output.exit_code, 0) << output.err;
  EXPECT_EQ(output.out, agent::format_timeline(sample_trace()));
  EXPECT_EQ(output.err, "");
}

TEST_F(TraceShow, JsonIsTheTraceFile) {
  wire::write_trace_file(dir() / "t.trace", sample_trace());
  const auto output = exocheck({"trace", "show", "--json", "t.trace"});
  ASSERT_EQ(output.exit_code, 0) << output.err;
  proto::TraceFile printed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(output.out, &printed).ok()) << output.out;
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(printed, sample_trace()));
}

TEST_F(TraceShow, HelpDescribesEveryCommand) {
  const auto top = exocheck({"--help"});
  EXPECT_EQ(top.exit_code, 0);
  for (const auto* word : {"run", "replay", "trace"}) EXPECT_NE(top.out.find(word), std::string::npos) << word;
  const auto run = exocheck({"run", "--help"});
  EXPECT_EQ(run.exit_code, 0);
  for (const auto* option :
       {"--prefix", "--heuristic", "--step-limit", "--timeout", "--out", "--json", "-- ./subject"}) {
    EXPECT_NE(run.out.find(option), std::string::npos) << option << " missing from\n" << run.out;
  }
  const auto replay = exocheck({"replay", "--help"});
  EXPECT_EQ(replay.exit_code, 0);
  for (const auto* option : {"TRACE", "--timeout", "--json", "-- ./subject"}) {
    EXPECT_NE(replay.out.find(option), std::string::npos) << option << " missing from\n" << replay.out;
  }
  const auto show = exocheck({"trace", "show", "--help"});
  EXPECT_EQ(show.exit_code, 0);
  for (const auto* option : {"TRACE", "--json"}) EXPECT_NE(show.out.find(option), std::string::npos) << option;
}

TEST_F(TraceShow, VersionIsTheProjectVersion) {
  const auto output = exocheck({"--version"});
  EXPECT_EQ(output.exit_code, 0);
  EXPECT_EQ(output.out, "exocheck " + std::string(EXOCHECK_TEST_TOOL_VERSION) + "\n");
}

}  // namespace
}  // namespace exocheck::cli_test
