// The runner against scripted_hook, which plays the hook's side of the channel exactly as told:
// well-formed conversations, every protocol violation, and every way a process can end.

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runner_fixture.hpp"

namespace exocheck::agent::testing {
namespace {

const std::string kScript = bin("scripted_hook");

TEST(RunnerProtocol, CollectsHelloEventsAndResult) {
  const auto report = run_script({"hello", "read-request", "events:3", "result"});
  EXPECT_TRUE(report.hello_seen);
  EXPECT_EQ(steps_of(report), first_steps(3));
  EXPECT_EQ(report.events[1].message(), "0#1");
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(report.result.detail(), "scripted");
  EXPECT_EQ(report.result.steps(), 2u);
  EXPECT_EQ(report.result.exit_code(), 0);
  EXPECT_EQ(report.result.signal(), 0);
}

TEST(RunnerProtocol, HandsTheWholeRequestToTheHook) {
  proto::RunRequest request;
  for (const char* id : {"env#1", "0#1", "0#2"}) request.add_prefix(id);
  request.set_heuristic(proto::LCA);
  request.set_step_limit(7);
  request.add_ranking("1");
  request.add_ranking("0");
  const auto report =
      run(kScript, {"hello", "read-request", "echo-request", "result"}, std::chrono::milliseconds(5000), request);
  ASSERT_EQ(report.events.size(), 1u);
  EXPECT_EQ(report.events[0].summary(), "version=2 prefix=3:env#1..0#2 heuristic=LCA step_limit=7 ranking=1,0");
}

TEST(RunnerProtocol, SendsARequestLargerThanTheSocketBuffer) {
  proto::RunRequest request;
  for (int i = 1; i <= 200'000; ++i) request.add_prefix("0#" + std::to_string(i));
  const auto report =
      run(kScript, {"hello", "read-request", "echo-request", "result"}, std::chrono::milliseconds(5000), request);
  ASSERT_EQ(report.result.status(), proto::RUN_COMPLETED) << report.result.detail();
  EXPECT_EQ(report.events[0].summary(), "version=2 prefix=200000:0#1..0#200000 heuristic=FIFO step_limit=0 ranking=");
}

TEST(RunnerProtocol, ReadsBatchedAndSplitFrames) {
  const auto report = run_script({"hello", "read-request", "batch:500", "trickle:5", "events:3", "result"});
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(steps_of(report), first_steps(508));
}

TEST(RunnerProtocol, AcceptsAnEventFrameWithAnUnknownField) {
  const auto report = run_script({"hello", "read-request", "events:1", "odd-event", "events:1", "result"});
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED) << report.result.detail();
  EXPECT_EQ(steps_of(report), first_steps(3));
  EXPECT_EQ(report.events[1].message(), "0#1");
}

TEST(RunnerProtocol, ChecksTheStepOfAnEventFrameWithAnUnknownField) {
  const auto report = run_script({"hello", "read-request", "events:1", "skip-step", "odd-event", "hang"});
  EXPECT_EQ(report.result.status(), proto::RUN_EXOCHECK_FAILED);
  EXPECT_EQ(report.result.detail(), kScript +
                                        ": event for step 2 where step 1 was due after step 0 (the initial step); "
                                        "prefix of 0 messages");
}

TEST(RunnerProtocol, GivesTheSubjectOnlyStdioAndTheControlSocketInItsOwnGroup) {
  // A descriptor the embedding program forgot to mark close-on-exec must not reach the subject.
  const int inheritable = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(inheritable, 0);
  ::setenv("EXOCHECK_RUNNER_TEST_MARK", "inherited", 1);
  const auto report = run_script({"hello", "read-request", "self", "result"});
  ::unsetenv("EXOCHECK_RUNNER_TEST_MARK");
  ::close(inheritable);
  ASSERT_EQ(report.events.size(), 1u);
  EXPECT_EQ(report.events[0].summary(),
            "fds=0:/dev/null,1:/dev/null,2:pipe,3:socket group=own control=3 mark=inherited");
}

TEST(RunnerProtocol, KeepsTheLast4KiBOfStderr) {
  const auto report = run_script({"hello", "read-request", "stderr-bytes:10000", "result"});
  EXPECT_EQ(report.result.stderr_tail(), std::string(4093, 'x') + "END");
}

TEST(RunnerProtocol, ReportsACrashWithTheEventsBeforeIt) {
  const auto report = run_script({"hello", "read-request", "events:2", "stderr:about to abort", "abort"});
  EXPECT_EQ(report.result.status(), proto::RUN_CRASH);
  EXPECT_EQ(report.result.signal(), SIGABRT);
  EXPECT_EQ(steps_of(report), first_steps(2));
  EXPECT_EQ(report.result.steps(), 1u);
  EXPECT_EQ(report.result.detail(),
            kScript + " crashed with SIGABRT after step 1 (message 0#1 at actor 0); prefix of 0 messages");
  EXPECT_EQ(report.result.stderr_tail(), "about to abort");
}

TEST(RunnerProtocol, ReportsAnExitWithoutResult) {
  const auto report = run_script({"hello", "read-request", "events:1", "exit:7"});
  EXPECT_EQ(report.result.status(), proto::RUN_EXIT_WITHOUT_RESULT);
  EXPECT_EQ(report.result.exit_code(), 7);
  EXPECT_EQ(report.result.detail(),
            kScript + " exited with code 7 without a result after step 0 (the initial step); prefix of 0 messages");
}

TEST(RunnerProtocol, ReportsAProcessWithoutHelloAsNotLinkedWithTheHook) {
  const auto report = run_script({"exit:3"});
  EXPECT_FALSE(report.hello_seen);
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.exit_code(), 3);
  EXPECT_EQ(report.result.detail(), kScript +
                                        " is not linked with the exocheck hook: it exited with code 3 without a "
                                        "hello on the control channel");
}

struct Violation {
  std::vector<std::string> actions;
  std::string problem;
  unsigned events;
  // Bytes that are no frame may be the program's (its bug); well-formed frames out of order are
  // the hook's, so exocheck's; a hook of another version is refused.
  proto::RunStatus status = proto::RUN_PROTOCOL_ERROR;
};

class RunnerProtocolViolation : public ::testing::TestWithParam<Violation> {};

TEST_P(RunnerProtocolViolation, EndsTheRunWithAProtocolErrorAtOnce) {
  auto actions = GetParam().actions;
  actions.push_back("hang");  // the runner must kill it, not wait for the timeout
  RunReport report;
  const auto taken = milliseconds_taken([&] { report = run_script(actions, std::chrono::milliseconds(5000)); });
  EXPECT_LT(taken, 2000);
  EXPECT_EQ(report.result.status(), GetParam().status);
  EXPECT_EQ(report.result.detail(), GetParam().status == proto::RUN_LAUNCH_FAILED
                                        ? kScript + " " + GetParam().problem
                                        : kScript + ": " + GetParam().problem + "; prefix of 0 messages");
  EXPECT_EQ(report.events.size(), GetParam().events);
  EXPECT_EQ(report.result.signal(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Frames, RunnerProtocolViolation,
    ::testing::Values(
        Violation{{"hello", "read-request", "events:2", "garbage"},
                  "unparseable frame of 8 bytes after step 1 (message 0#1 at actor 0)",
                  2},
        Violation{{"hello", "read-request", "events:2", "oversized"},
                  "oversized frame of 1073741824 bytes after step 1 (message 0#1 at actor 0)",
                  2},
        Violation{{"hello", "read-request", "empty-frame"},
                  "frame of 0 bytes with neither hello, event nor result before any step",
                  0},
        Violation{{"events:1"}, "event frame ahead of the hello before any step", 0, proto::RUN_EXOCHECK_FAILED},
        Violation{{"hello:1"},
                  "carries an exocheck hook that speaks protocol version 1, this exocheck speaks "
                  "version 2: rebuild it against this exocheck's hook (exocheck::hook)",
                  0,
                  proto::RUN_LAUNCH_FAILED},
        Violation{{"hello", "hello"}, "second hello frame before any step", 0, proto::RUN_EXOCHECK_FAILED},
        Violation{{"result"}, "result frame ahead of the hello before any step", 0, proto::RUN_EXOCHECK_FAILED},
        Violation{{"hello", "read-request", "events:2", "skip-step", "events:1"},
                  "event for step 3 where step 2 was due after step 1 (message 0#1 at actor 0)",
                  2,
                  proto::RUN_EXOCHECK_FAILED}));

TEST(RunnerTimeout, SendsSigtermAndKeepsTheEventsFlushedOnIt) {
  RunReport report;
  const auto taken = milliseconds_taken([&] {
    report = run_script({"hello", "read-request", "events:2", "term-flush:3", "hang"}, std::chrono::milliseconds(500));
  });
  EXPECT_GE(taken, 500);
  EXPECT_LT(taken, 1000);
  EXPECT_EQ(report.result.status(), proto::RUN_HANG);
  EXPECT_EQ(steps_of(report), first_steps(5));
  EXPECT_EQ(report.result.detail(),
            kScript + ": no result within 500 ms; last step 4 (message 0#4 at actor 0); prefix of 0 messages");
}

TEST(RunnerTimeout, KillsASubjectThatIgnoresSigterm) {
  RunReport report;
  const auto taken = milliseconds_taken([&] {
    report = run_script({"hello", "read-request", "events:1", "ignore-term", "hang"}, std::chrono::milliseconds(500));
  });
  EXPECT_GE(taken, 700);  // the timeout, then the 200 ms the hook gets to flush
  EXPECT_LT(taken, 1500);
  EXPECT_EQ(report.result.status(), proto::RUN_HANG);
  EXPECT_EQ(report.result.signal(), 0);
  EXPECT_EQ(report.events.size(), 1u);
}

TEST(RunnerTimeout, TreatsAClosedChannelWithoutExitAsAHang) {
  const auto report = run_script({"hello", "read-request", "close-channel", "hang"}, std::chrono::milliseconds(300));
  EXPECT_EQ(report.result.status(), proto::RUN_HANG);
  EXPECT_EQ(report.result.detail(), kScript + ": no result within 300 ms; no step seen; prefix of 0 messages");
}

TEST(RunnerTimeout, KillsASubjectThatDoesNotExitAfterItsResult) {
  RunReport report;
  const auto taken = milliseconds_taken([&] { report = run_script({"hello", "read-request", "result", "hang"}); });
  EXPECT_GE(taken, 1000);
  EXPECT_LT(taken, 2000);
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(report.result.signal(), 0);
}

TEST(RunnerTimeout, DoesNotWaitForAGrandchildHoldingTheChannel) {
  RunReport report;
  const auto taken = milliseconds_taken([&] {
    report = run_script({"hello", "read-request", "events:1", "linger", "result"});
  });
  EXPECT_LT(taken, 1000);
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
}

}  // namespace
}  // namespace exocheck::agent::testing
