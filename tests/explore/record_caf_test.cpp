// `exocheck record` of CAF programs (runtime_hook/caf/src/caf_recording.hpp): the adapter, preloaded
// by `record`, hooks the deliveries while CAF's own scheduler runs the program; the trace replays
// under control to the same failure. What a replay cannot follow yet is refused, named.

#include <filesystem>
#include <string>

#include "record_fixture.hpp"

namespace exocheck::explore_test {
namespace {

// caf-bank's lost update happens in about half of its free runs on CAF's work-stealing scheduler.
TEST_F(Record, ACafProgramsFreeRunFailureIsRecordedAndReplays) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-bank", {}, 500);
  ASSERT_TRUE(trace) << "no free run of caf-bank failed in 500";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(replayed.out.find("Assertion `balance == expected' failed"), std::string::npos) << replayed.out;
  // The same actors and messages as under control: the auditor is actor 1, the account's answer 0#5.
  EXPECT_NE(replayed.out.find("assertion failed in actor 1 handling 0#5 (reply:@i32) at step 12"), std::string::npos)
      << replayed.out;
}

TEST_F(Record, ACafProgramsCompletedRunReplaysToItsEnd) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  const auto recorded = exocheck(
      {"record", "--always", "--json", "--out", "clean", "--", cli_test::subject_path("caf-bank").string(), "--fixed"});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
  const auto report = nlohmann::json::parse(recorded.out);
  EXPECT_EQ(report.at("steps").get<int>(), 9);  // 2 deposits, 2 oks, 2 dones, get, its reply, stop
  const auto replayed = exocheck({"replay", report.at("trace").get<std::string>()});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_COMPLETED"), std::string::npos) << replayed.out;
}

// caf-philosophers deadlocks in most free runs: stopped by --timeout while it waits, the run is
// saved as hung, and its replay shows the deadlock it was (each philosopher waiting for a reply).
TEST_F(Record, AFreeRunStoppedWhileItWaitsReplaysToItsDeadlock) {
  if (!built("caf-philosophers")) GTEST_SKIP() << "caf-philosophers not built (no libcaf-dev)";
  for (int i = 0; i < 50; ++i) {
    const auto run = exocheck({"record", "--json", "--timeout", "1", "--out", "hung", "--",
                               cli_test::subject_path("caf-philosophers").string()});
    if (run.exit_code == 0) continue;
    ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
    const auto report = nlohmann::json::parse(run.out);
    EXPECT_EQ(report.at("status").get<std::string>(), "RUN_HANG");
    EXPECT_NE(report.at("detail").get<std::string>().find("stopped by SIGTERM"), std::string::npos) << run.out;
    const auto replayed = exocheck({"replay", report.at("trace").get<std::string>()});
    EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
    EXPECT_NE(replayed.out.find("Replay: reproduced RUN_DEADLOCK"), std::string::npos) << replayed.out;
    return;
  }
  FAIL() << "caf-philosophers never deadlocked in 50 free runs";
}

// caf_main's scoped_actor is an actor of the run: its receive's steps, and caf_main's code between
// them, are recorded (caf-scoped's counter read before the increments came: an assertion in caf_main).
TEST_F(Record, ACafMainsScopedActorIsRecordedAndReplays) {
  if (!built("caf-scoped")) GTEST_SKIP() << "caf-scoped not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-scoped", {}, 100);
  ASSERT_TRUE(trace) << "no free run of caf-scoped failed in 100";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(replayed.out.find("Assertion `value == 2' failed"), std::string::npos) << replayed.out;
}

// record --junit: the run as one JUnit test case, failed with its status and its replay command.
TEST_F(Record, AJUnitReportNamesTheRunAndTheCommandThatReplaysIt) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  const auto subject = cli_test::subject_path("caf-bank").string();
  ASSERT_EQ(exocheck({"record", "--junit", "pass.xml", "--out", "j", "--", subject, "--fixed"}).exit_code, 0);
  EXPECT_NE(text_of("pass.xml").find("failures=\"0\""), std::string::npos) << text_of("pass.xml");
  EXPECT_NE(text_of("pass.xml").find("name=\"caf-bank --fixed\""), std::string::npos) << text_of("pass.xml");
  for (int i = 0; i < 500; ++i) {
    if (exocheck({"record", "--junit", "fail.xml", "--out", "j", "--", subject}).exit_code != 1) continue;
    const auto xml = text_of("fail.xml");
    EXPECT_NE(xml.find("failures=\"1\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("<failure type=\"RUN_ASSERTION_FAILED\""), std::string::npos) << xml;
    EXPECT_NE(xml.find("replay: exocheck replay j/recorded-1.trace"), std::string::npos) << xml;
    return;
  }
  FAIL() << "no free run of caf-bank failed in 500";
}

// A timer of CAF's real clock that fired (caf-retry starts on a delayed_send of its own): its
// message comes from the clock's thread, which a replay cannot name yet. No trace that would only
// diverge: the construct is named, exit 2.
TEST_F(Record, WhatAReplayCannotFollowInACafProgramIsRefusedNamed) {
  if (!built("caf-retry")) GTEST_SKIP() << "caf-retry not built (no libcaf-dev)";
  const auto retry =
      exocheck({"record", "--always", "--out", "retry", "--", cli_test::subject_path("caf-retry").string()});
  EXPECT_EQ(retry.exit_code, 2) << retry.out << retry.err;
  EXPECT_NE(retry.err.find("a message sent outside any actor's code (CAF's clock"), std::string::npos) << retry.err;
  EXPECT_NE(retry.err.find("no trace was saved"), std::string::npos) << retry.err;
  EXPECT_FALSE(std::filesystem::exists(dir().path() / "retry" / "recorded-1.trace"));
}

}  // namespace
}  // namespace exocheck::explore_test
