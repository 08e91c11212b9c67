// `exocheck run` end to end on the real subjects: timeline, saved trace, determinism, clocks.

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "exocheck/wire/frame.hpp"

namespace exocheck::cli_test {
namespace {

using Clock = std::map<std::string, unsigned>;

std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

Clock clock_of(const proto::Event& event) {
  Clock clock;
  for (const auto& entry : event.clock()) clock[entry.actor()] = entry.count();
  return clock;
}

void merge_into(Clock& into, const Clock& other) {
  for (const auto& [actor, count] : other) into[actor] = std::max(into[actor], count);
}

/// Index of the event that sent `message`, or of the one that created `actor`; -1 if none.
int sender_of(const proto::TraceFile& trace, int before, const std::string& message) {
  for (int i = 0; i < before; ++i) {
    const auto& sent = trace.events(i).sent();
    if (std::any_of(sent.begin(), sent.end(), [&](const auto& s) { return s.id() == message; })) return i;
  }
  return -1;
}

int creator_of(const proto::TraceFile& trace, int before, const std::string& actor) {
  for (int i = 0; i < before; ++i) {
    const auto& created = trace.events(i).created();
    if (std::find(created.begin(), created.end(), actor) != created.end()) return i;
  }
  return -1;
}

int previous_step_of(const proto::TraceFile& trace, int before, const std::string& actor) {
  for (int i = before - 1; i > 0; --i) {
    if (trace.events(i).actor() == actor) return i;
  }
  return -1;
}

/// DESIGN.md, "Vector clocks": VC(step) = max(VC(previous step of the actor), VC(sending step), and
/// for the first step VC(creating step)), own entry + 1. Checks every step of `trace` against it.
void expect_clocks_follow_causality(const proto::TraceFile& trace) {
  ASSERT_GT(trace.events_size(), 1);
  EXPECT_TRUE(trace.events(0).clock().empty()) << "the initial step is concurrent with everything";
  for (int i = 1; i < trace.events_size(); ++i) {
    const auto& event = trace.events(i);
    const int sender = sender_of(trace, i, event.message());
    ASSERT_GE(sender, 0) << "step " << event.step() << " delivers " << event.message() << ", never sent before";
    const int previous = previous_step_of(trace, i, event.actor());
    Clock expected = clock_of(trace.events(sender));
    if (previous > 0) {
      merge_into(expected, clock_of(trace.events(previous)));
    } else if (const int creator = creator_of(trace, i, event.actor()); creator >= 0) {
      merge_into(expected, clock_of(trace.events(creator)));
    }
    const unsigned own_before = previous > 0 ? clock_of(trace.events(previous))[event.actor()] : 0;
    expected[event.actor()] += 1;
    EXPECT_EQ(clock_of(event), expected) << "step " << event.step();
    EXPECT_EQ(clock_of(event)[event.actor()], own_before + 1) << "step " << event.step();
  }
}

class RunCommand : public CliTest {};

TEST_F(RunCommand, RegistryShowsFiveStepsAfterTheInitialOne) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto output = run_subject("registry", {}, "r.trace");
  ASSERT_EQ(output.exit_code, 0) << output.err;
  EXPECT_EQ(step_numbers(output.out), (std::vector<unsigned>{0, 1, 2, 3, 4, 5})) << output.out;
  EXPECT_NE(output.out.find("\nResult: completed (RUN_COMPLETED) after 5 steps\n"), std::string::npos) << output.out;
  const auto saved = trace("r.trace");
  EXPECT_EQ(saved.events_size(), 6);
  EXPECT_EQ(saved.result().status(), proto::RUN_COMPLETED);
  EXPECT_EQ(saved.result().steps(), 5u);
}

TEST_F(RunCommand, TraceDescribesItself) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto output =
      run_subject("registry", {"--heuristic", "lca", "--step-limit", "50", "--prefix", "0#1"}, "r.trace");
  ASSERT_EQ(output.exit_code, 0) << output.err;
  const auto saved = trace("r.trace");
  EXPECT_EQ(saved.format_version(), 1u);
  EXPECT_EQ(saved.tool_version(), EXOCHECK_TEST_TOOL_VERSION);
  EXPECT_EQ(saved.protocol_version(), wire::kProtocolVersion);
  EXPECT_EQ(saved.subject(), subject_path("registry").string());
  EXPECT_TRUE(saved.args().empty());
  EXPECT_EQ(std::vector<std::string>(saved.prefix().begin(), saved.prefix().end()), std::vector<std::string>{"0#1"});
  EXPECT_EQ(saved.heuristic(), "lca");
  EXPECT_EQ(saved.step_limit(), 50u);
}

TEST_F(RunCommand, SubjectArgumentsAreRecorded) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto output = exocheck({"run", "--out", "w.trace", "--", subject_path("registry").string(), "--workers", "3"});
  ASSERT_EQ(output.exit_code, 0) << output.err;
  const auto saved = trace("w.trace");
  EXPECT_EQ(std::vector<std::string>(saved.args().begin(), saved.args().end()),
            (std::vector<std::string>{"--workers", "3"}));
  EXPECT_GT(saved.result().steps(), 5u) << "three workers register one more time than two";
}

// Linux allows a path to be any bytes; protobuf's string fields and JSON want UTF-8. A subject at
// such a path runs and is explored like any other; its traces and reports name it with U+FFFD.
TEST_F(RunCommand, ASubjectWhosePathIsNotUtf8RunsAndIsExplored) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto subject = dir().path() / "registry-caf\xE9";
  std::filesystem::copy_file(subject_path("registry"), subject);
  const std::string named = (dir().path() / "registry-caf\xEF\xBF\xBD").string();
  const auto ran = exocheck({"run", "--out", "r.trace", "--", subject.string()});
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  const auto saved = trace("r.trace");
  EXPECT_EQ(saved.subject(), named);
  EXPECT_EQ(saved.result().status(), proto::RUN_COMPLETED);
  const auto explored = exocheck({"explore", "--json", "--", subject.string()});
  ASSERT_EQ(explored.exit_code, 0) << explored.err;
  const auto summary = nlohmann::json::parse(explored.out);
  EXPECT_EQ(summary.at("stats").at("classes"), 6);
  const auto replayed = exocheck({"replay", (dir().path() / "r.trace").string()});
  EXPECT_NE(replayed.err.find("subject binary not found: " + named), std::string::npos) << replayed.err;
}

TEST_F(RunCommand, SavesToExocheckRunTraceByDefault) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto output = exocheck({"run", "--", subject_path("registry").string()});
  ASSERT_EQ(output.exit_code, 0) << output.err;
  EXPECT_EQ(trace("exocheck-run.trace").result().status(), proto::RUN_COMPLETED);
}

TEST_F(RunCommand, TwoRunsGiveByteIdenticalTraces) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  ASSERT_EQ(run_subject("registry", {}, "first.trace").exit_code, 0);
  ASSERT_EQ(run_subject("registry", {}, "second.trace").exit_code, 0);
  const auto first = bytes_of(dir() / "first.trace");
  EXPECT_GT(first.size(), 8u);
  EXPECT_EQ(first, bytes_of(dir() / "second.trace"));
}

TEST_F(RunCommand, JsonOutputIsTheSavedTrace) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto output = run_subject("registry", {"--json"}, "r.trace");
  ASSERT_EQ(output.exit_code, 0) << output.err;
  proto::TraceFile printed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(output.out, &printed).ok()) << output.out;
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(printed, trace("r.trace")));
}

TEST_F(RunCommand, ARunCutAtTheStepLimitIsBoundedNotABug) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  const auto output = run_subject("registry", {"--step-limit", "2"}, "r.trace");
  EXPECT_EQ(output.exit_code, 3) << output.err;
  EXPECT_EQ(trace("r.trace").result().status(), proto::RUN_STEP_LIMIT);
  EXPECT_NE(output.out.find("Result: step limit exceeded (RUN_STEP_LIMIT)"), std::string::npos) << output.out;
}

class Clocks : public CliTest, public testing::WithParamInterface<std::tuple<std::string, std::string>> {};

TEST_P(Clocks, FollowCausality) {
  const auto& [subject, heuristic] = GetParam();
  if (!built(subject)) GTEST_SKIP() << "subject " << subject << " is not built";
  const auto output = run_subject(subject, {"--heuristic", heuristic}, "c.trace");
  ASSERT_NE(output.exit_code, 2) << output.err;
  expect_clocks_follow_causality(trace("c.trace"));
}

INSTANTIATE_TEST_SUITE_P(Subjects, Clocks,
                         testing::Combine(testing::Values("registry", "pi", "fib", "clientserver"),
                                          testing::Values("fifo", "lifo", "eca", "lca", "ldm", "hdm")),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

}  // namespace
}  // namespace exocheck::cli_test
