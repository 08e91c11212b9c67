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

// caf-bank --detached: the account runs on a private thread of its own (caf::detached); its steps
// are recorded as that thread takes them, and the replay runs it on the schedule.
TEST_F(Record, ADetachedCafActorsRunIsRecordedAndReplays) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-bank", {"--detached"}, 500);
  ASSERT_TRUE(trace) << "no free run of caf-bank --detached failed in 500";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(replayed.out.find("Assertion `balance == expected' failed"), std::string::npos) << replayed.out;
}

// A detached actor's initial code runs on its private thread too (caf_faults --churn --detached:
// the hirer's first request): what it sends there is its own, named as under control.
TEST_F(Record, ADetachedCafActorsInitialCodeIsItsOwn) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto recorded = exocheck({"record", "--always", "--json", "--out", "detached-churn", "--",
                                  cli_test::subject_path("caf_faults").string(), "--churn=5", "--detached"});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
  const auto report = nlohmann::json::parse(recorded.out);
  EXPECT_EQ(report.at("steps").get<int>(), 10);  // each worker's request, and its answer at the hirer
  const auto replayed = exocheck({"replay", report.at("trace").get<std::string>()});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_COMPLETED"), std::string::npos) << replayed.out;
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

// caf_main's code after its await_all_actors_done() is a step of caf_main's own actor, as under
// control: caf-phases awaits between its phases and checks in caf_main.
TEST_F(Record, CafMainsCodeAfterItsAwaitIsRecordedAndReplays) {
  if (!built("caf-phases")) GTEST_SKIP() << "caf-phases not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-phases", {}, 200);
  ASSERT_TRUE(trace) << "no free run of caf-phases failed in 200";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(exocheck({"trace", "show", *trace}).out.find("await_all_actors_done"), std::string::npos);
}

// caf-retry --slow-ms=100: the account takes 100 ms over the first deposit, the request's 100 ms
// timeout races its reply in a free run, and the retry deposits twice. The timer that fired is
// named as under control (the client's delayed start "env#t1", the timeout "1#t1"), and the
// replay takes the same timeout's path to the same failure.
TEST_F(Record, ACafRequestTimeoutThatFiredIsRecordedAndReplays) {
  if (!built("caf-retry")) GTEST_SKIP() << "caf-retry not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-retry", {"--slow-ms=100"}, 100);
  ASSERT_TRUE(trace) << "no free run of caf-retry --slow-ms=100 failed in 100";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  const auto shown = exocheck({"trace", "show", *trace});
  EXPECT_NE(shown.out.find(" env#t1 "), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find(" 1#t1 "), std::string::npos) << shown.out;
}

// caf-batcher --gap-ms=60: items 60 ms apart, the batcher's 50 ms after(...) fires between them
// and its flush sends an item twice. The receive timeout is named after the step that armed it (CAF
// arms it once per resume, under control once per step), and the replay fires the same one.
TEST_F(Record, ACafReceiveTimeoutThatFiredIsRecordedAndReplays) {
  if (!built("caf-batcher")) GTEST_SKIP() << "caf-batcher not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-batcher", {"--gap-ms=60"}, 20);
  ASSERT_TRUE(trace) << "no free run of caf-batcher --gap-ms=60 failed in 20";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(exocheck({"trace", "show", *trace}).out.find(" 1#t1 "), std::string::npos);
}

// caf-scoped --wait-ms=1 --slow-ms=2: caf_main waits for each increment with after(1 ms), the
// counter takes 2 ms over one, and caf_main asserts both came in time (a flaky test's wait). The
// timeout that fired is a step of caf_main's scoped_actor, named by what its receives got before
// ("1#w1": its first), as under control, and the replay fires the same one.
TEST_F(Record, ABlockingReceivesTimeoutThatFiredIsRecordedAndReplays) {
  if (!built("caf-scoped")) GTEST_SKIP() << "caf-scoped not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-scoped", {"--wait-ms=1", "--slow-ms=2"}, 20);
  ASSERT_TRUE(trace) << "no free run of caf-scoped --wait-ms=1 --slow-ms=2 failed in 20";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(replayed.out.find("Assertion `in_time == 2' failed"), std::string::npos) << replayed.out;
  EXPECT_NE(exocheck({"trace", "show", *trace}).out.find(" 1#w1 "), std::string::npos);
}

// caf-blocking: an actor spawned with blocking_api runs on a thread of its own; its start is a step
// of its own and each message its receive takes another, as under control.
TEST_F(Record, ACafActorOnAThreadOfItsOwnIsRecordedAndReplays) {
  if (!built("caf-blocking")) GTEST_SKIP() << "caf-blocking not built (no libcaf-dev)";
  const auto trace = record_until_failure("caf-blocking", {}, 100);
  ASSERT_TRUE(trace) << "no free run of caf-blocking failed in 100";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(exocheck({"trace", "show", *trace}).out.find(" start "), std::string::npos);
}

// A server that spawns per request (caf_faults --churn): each worker's record goes as it ends,
// and what is sent to it after (the hirer's ping) is still named as under control.
TEST_F(Record, ActorsThatEndedAreForgottenAndTheirDeadLettersNamed) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto recorded = exocheck({"record", "--always", "--json", "--out", "churn", "--",
                                  cli_test::subject_path("caf_faults").string(), "--churn=40"});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
  const auto report = nlohmann::json::parse(recorded.out);
  EXPECT_EQ(report.at("steps").get<int>(), 80);  // each worker's request, and its answer at the hirer
  const auto replayed = exocheck({"replay", report.at("trace").get<std::string>()});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_COMPLETED"), std::string::npos) << replayed.out;
  EXPECT_NE(replayed.out.find("dead letters: 0#2, 0#4"), std::string::npos) << replayed.out;
}

// A CAF stream (caf-stream) runs outside what a replay follows yet: no trace that would only
// diverge; the construct is named, exit 2.
TEST_F(Record, WhatAReplayCannotFollowInACafProgramIsRefusedNamed) {
  if (!built("caf-stream")) GTEST_SKIP() << "caf-stream not built (no libcaf-dev)";
  const auto run =
      exocheck({"record", "--always", "--out", "stream", "--", cli_test::subject_path("caf-stream").string()});
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("a CAF stream"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no trace was saved"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir().path() / "stream" / "recorded-1.trace"));
}

}  // namespace
}  // namespace exocheck::explore_test
