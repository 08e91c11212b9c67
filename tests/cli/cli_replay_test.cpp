// `exocheck replay` end to end: every heuristic's trace replays exactly, the clientserver bug of the
// SEJAP thesis (Fig. 3-2, F2) is found by a prefix and reproduced, divergence names what happened.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

#include "cli_fixture.hpp"

namespace exocheck::cli_test {
namespace {

std::string joined(const google::protobuf::RepeatedPtrField<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

class Replay : public CliTest, public testing::WithParamInterface<std::tuple<std::string, std::string>> {};

TEST_P(Replay, RecordedTraceReplaysExactly) {
  const auto& [subject, heuristic] = GetParam();
  if (!built(subject)) GTEST_SKIP() << "subject " << subject << " is not built";
  const auto recorded = run_subject(subject, {"--heuristic", heuristic}, "h.trace");
  ASSERT_NE(recorded.exit_code, 2) << recorded.err;
  const auto status = trace("h.trace").result().status();
  const auto replayed = exocheck({"replay", "h.trace"});
  EXPECT_EQ(last_line(replayed.out), "Replay: reproduced " + proto::RunStatus_Name(status)) << replayed.out;
  EXPECT_EQ(replayed.exit_code, recorded.exit_code) << replayed.err;
  // The replay prints the same timeline below the same options, the prefix aside.
  EXPECT_EQ(step_numbers(replayed.out), step_numbers(recorded.out));
}

INSTANTIATE_TEST_SUITE_P(Heuristics, Replay,
                         testing::Combine(testing::Values("registry", "pi", "clientserver"),
                                          testing::Values("fifo", "lifo", "eca", "lca", "ldm", "hdm")),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

class ReplayCommand : public CliTest {};

// Fig. 3-2, F2: the server (actor 0) handles the client's first Get (1#2, sent at start-up with
// Set(1) = 1#1) before Set(1); its reply (0#1) lets the client send the second Get after Set(1).
const std::vector<std::string> kAtomicityViolationPrefix = {"1#2", "0#1", "1#1"};

TEST_F(ReplayCommand, ClientServerAtomicityViolationIsFoundAndReproduced) {
  if (!built("clientserver")) GTEST_SKIP() << "subject clientserver is not built";
  const auto prefix =
      kAtomicityViolationPrefix[0] + "," + kAtomicityViolationPrefix[1] + "," + kAtomicityViolationPrefix[2];
  const auto found = run_subject("clientserver", {"--prefix", prefix}, "f2.trace");
  EXPECT_EQ(found.exit_code, 1) << found.err;
  EXPECT_NE(found.out.find("Result: assertion failed (RUN_ASSERTION_FAILED)"), std::string::npos) << found.out;
  const auto recorded = trace("f2.trace");
  ASSERT_EQ(recorded.result().status(), proto::RUN_ASSERTION_FAILED);
  ASSERT_GE(recorded.events_size(), 4);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(recorded.events(i + 1).message(), kAtomicityViolationPrefix[i]);
  const auto& failing = recorded.events(recorded.events_size() - 1);
  EXPECT_EQ(failing.outcome(), proto::STEP_ASSERTION_FAILED);
  EXPECT_EQ(failing.actor(), "1") << "the client checks v1 == v2";
  EXPECT_NE(failing.detail().find("v1=0 but v2=1"), std::string::npos) << failing.detail();

  const auto replayed = exocheck({"replay", "f2.trace"});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.err;
  EXPECT_EQ(last_line(replayed.out), "Replay: reproduced RUN_ASSERTION_FAILED") << replayed.out;
}

TEST_F(ReplayCommand, PrefixNamingAMessageNotEnabledIsADivergence) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  ASSERT_EQ(run_subject("registry", {}, "fifo.trace").exit_code, 0);
  const auto fifo = trace("fifo.trace");
  ASSERT_EQ(fifo.events_size(), 6);
  // The last message delivered is sent late in the run: it cannot be enabled at step 2.
  const auto& not_enabled = fifo.events(5).message();
  const auto& enabled = fifo.events(2).enabled();
  ASSERT_EQ(std::count(enabled.begin(), enabled.end(), not_enabled), 0);

  const auto output = run_subject("registry", {"--prefix", fifo.events(1).message() + "," + not_enabled}, "d.trace");
  EXPECT_EQ(output.exit_code, 1) << output.err;
  EXPECT_NE(output.out.find("named " + not_enabled + ", enabled instead: " + joined(enabled) + "\n"), std::string::npos)
      << output.out;
  const auto diverged = trace("d.trace").result();
  EXPECT_EQ(diverged.status(), proto::RUN_DIVERGENCE);
  EXPECT_EQ(diverged.divergence_expected(), not_enabled);
  EXPECT_EQ(joined(diverged.divergence_enabled()), joined(enabled));

  const auto replayed = exocheck({"replay", "d.trace"});
  EXPECT_EQ(replayed.exit_code, 1);
  EXPECT_EQ(last_line(replayed.out), "Replay: reproduced RUN_DIVERGENCE") << replayed.out;
}

// A run that fails and then diverges is reported as its failure, and replays as far: random
// program 76 throws at step 3, and its prefix's next message (2#2, an Ask to actor 0) is not
// enabled then, as actor 0 awaits a reply. Its replay stopped at the failure's step only once the
// divergence was part of the schedule (a portfolio's bug-N.needs.trace had ended this way).
TEST_F(ReplayCommand, ARunThatFailsAndThenDivergesReplaysToTheSameEnd) {
  if (!built("random_actors")) GTEST_SKIP() << "subject random_actors is not built";
  const auto output = exocheck({"run", "--delivery", "fifo", "--prefix", "env#1,env#2,2#3,2#2,env#3", "--out",
                                "f.trace", "--", subject_path("random_actors").string(), "--seed", "76"});
  EXPECT_EQ(output.exit_code, 1) << output.err;
  const auto failed = trace("f.trace");
  EXPECT_EQ(failed.result().status(), proto::RUN_EXCEPTION);
  EXPECT_EQ(failed.result().divergence_expected(), "2#2");
  EXPECT_EQ(failed.events_size(), 4);
  const auto replayed = exocheck({"replay", "f.trace"});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.err;
  EXPECT_EQ(last_line(replayed.out), "Replay: reproduced RUN_EXCEPTION") << replayed.out;
}

TEST_F(ReplayCommand, HandEditedTraceIsNotReproduced) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  ASSERT_EQ(run_subject("registry", {}, "fifo.trace").exit_code, 0);
  auto edited = trace("fifo.trace");
  const auto original = edited.events(2).message();
  const auto late = edited.events(5).message();
  edited.mutable_events(2)->set_message(late);
  wire::write_trace_file(dir() / "edited.trace", edited);

  const auto replayed = exocheck({"replay", "edited.trace"});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.err;
  EXPECT_NE(replayed.out.find("named " + late + ", enabled instead: " + joined(edited.events(2).enabled()) + "\n"),
            std::string::npos)
      << replayed.out;
  EXPECT_EQ(last_line(replayed.out), "Replay: NOT reproduced: step 2: recorded message " + late + " at actor " +
                                         edited.events(2).actor() + ", replay ended after 2 events")
      << replayed.out;
  EXPECT_NE(original, late);
}

TEST_F(ReplayCommand, SubjectAfterSeparatorOverridesTheRecordedOne) {
  if (!built("registry") || !built("pi")) GTEST_SKIP() << "subjects registry and pi are not built";
  ASSERT_EQ(run_subject("registry", {}, "r.trace").exit_code, 0);
  const auto same = exocheck({"replay", "r.trace", "--", subject_path("registry").string()});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(last_line(same.out), "Replay: reproduced RUN_COMPLETED");
  const auto other = exocheck({"replay", "r.trace", "--", subject_path("pi").string()});
  EXPECT_EQ(other.exit_code, 1) << other.err;
  EXPECT_EQ(last_line(other.out).rfind("Replay: NOT reproduced: ", 0), 0u) << other.out;
}

TEST_F(ReplayCommand, JsonReportsTheVerdictAndTheReplay) {
  if (!built("registry")) GTEST_SKIP() << "subject registry is not built";
  ASSERT_EQ(run_subject("registry", {}, "r.trace").exit_code, 0);
  const auto replayed = exocheck({"replay", "--json", "r.trace"});
  ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
  const auto report = nlohmann::json::parse(replayed.out);
  EXPECT_EQ(report.at("reproduced"), true);
  EXPECT_TRUE(report.at("difference").is_null());
  EXPECT_EQ(report.at("replay").at("result").at("status"), "RUN_COMPLETED");
  EXPECT_EQ(report.at("replay").at("events").size(), 6u);
}

}  // namespace
}  // namespace exocheck::cli_test
