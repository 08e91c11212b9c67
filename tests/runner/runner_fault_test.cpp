// The runner on real subjects written against the actor API: the fault subjects of
// tests/fault_subjects, each misbehaving in step 3 after steps 0 to 2 (relay.hpp), and the
// well-behaved registry and pingpong.

#include <fcntl.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "runner_fixture.hpp"

namespace exocheck::agent::testing {
namespace {

enum class RunMode { process, forked, in_place };

// The faults every way of running reports in the same words: a process of its own per run, a fork
// of a fork server, and a run in place in the fork server (where every run must indeed have been
// performed the way asked).
class RunnerFaults : public ::testing::TestWithParam<RunMode> {
 protected:
  void SetUp() override {
    if (GetParam() == RunMode::in_place && !kernel_runs_in_place()) GTEST_SKIP() << "needs Linux 6.7";
  }

  RunReport run_fault(const std::string& subject, const std::vector<std::string>& args = {},
                      std::chrono::milliseconds timeout = std::chrono::milliseconds(5000),
                      const proto::RunRequest& request = {}) {
    Runner runner(
        RunnerOptions{.fork_server = GetParam() != RunMode::process, .in_place = GetParam() == RunMode::in_place});
    auto report = runner.run(spec_of(bin(subject), args, timeout, request));
    counters_ = runner.counters();
    return report;
  }
  void expect_forked_when_asked() const {
    EXPECT_EQ(counters_.forked_runs, GetParam() == RunMode::forked ? 1u : 0u);
    EXPECT_EQ(counters_.in_place_runs, GetParam() == RunMode::in_place ? 1u : 0u);
    EXPECT_EQ(counters_.process_runs, GetParam() == RunMode::process ? 1u : 0u);
  }

  RunnerCounters counters_;
};

INSTANTIATE_TEST_SUITE_P(Runners, RunnerFaults, ::testing::Values(RunMode::process, RunMode::forked, RunMode::in_place),
                         [](const auto& info) {
                           return info.param == RunMode::process  ? "ProcessPerRun"
                                  : info.param == RunMode::forked ? "ForkServer"
                                                                  : "InPlace";
                         });

TEST_P(RunnerFaults, ReportsASegfaultWithTheStepsUpToTheOneItEnded) {
  const auto report = run_fault("fault_crash");
  expect_forked_when_asked();
  EXPECT_TRUE(report.hello_seen);
  EXPECT_EQ(report.result.status(), proto::RUN_CRASH);
  EXPECT_EQ(report.result.signal(), SIGSEGV);
  expect_relay_steps_to_fault(report, true);
  EXPECT_EQ(report.events[3].outcome(), proto::STEP_CRASH);
  EXPECT_EQ(report.result.detail(),
            bin("fault_crash") + " crashed with SIGSEGV in " + kStep3 + "; prefix of 0 messages");
}

// The subject's own text that is not UTF-8 (a message summary, a check's text, a final state,
// stderr) arrives with U+FFFD for each stray byte: the run is the assertion failure it is, not a
// protocol error (protobuf's parser rejects a string field that is not UTF-8).
TEST_P(RunnerFaults, ReportsTextThatIsNotUtf8WithReplacementCharacters) {
  const auto report = run_fault("fault_latin1");
  expect_forked_when_asked();
  ASSERT_EQ(report.result.status(), proto::RUN_ASSERTION_FAILED) << report.result.detail();
  ASSERT_EQ(steps_of(report), first_steps(4));
  const std::string cafe = "caf\xEF\xBF\xBD";
  EXPECT_EQ(report.events[1].summary(), "Hop{n=1, next=1, tag=" + cafe + "}");
  EXPECT_EQ(report.events[3].detail(), "check " + cafe);
  EXPECT_EQ(report.result.detail(), "assertion failed in actor 0 handling 1#1 (Hop) at step 3: check " + cafe);
  EXPECT_EQ(std::vector<std::string>(report.result.final_state().begin(), report.result.final_state().end()),
            (std::vector<std::string>{"0: " + cafe, "1: " + cafe}));
  EXPECT_NE(report.result.stderr_tail().find("stderr " + cafe), std::string::npos) << report.result.stderr_tail();
}

TEST_P(RunnerFaults, NamesThePrefixLengthOfTheRun) {
  proto::RunRequest request;
  request.add_prefix("env#1");
  request.add_prefix("0#1");
  const auto report = run_fault("fault_crash", {}, std::chrono::milliseconds(5000), request);
  expect_forked_when_asked();
  EXPECT_EQ(report.result.status(), proto::RUN_CRASH);
  EXPECT_EQ(report.result.detail(),
            bin("fault_crash") + " crashed with SIGSEGV in " + kStep3 + "; prefix of 2 messages");
}

TEST_P(RunnerFaults, ReportsAHangAfterTheTimeoutWithTheStepsBeforeIt) {
  RunReport report;
  const auto taken = milliseconds_taken([&] { report = run_fault("fault_hang", {}, std::chrono::milliseconds(2000)); });
  expect_forked_when_asked();
  EXPECT_GE(taken, 2000);
  EXPECT_LT(taken, 3000);
  EXPECT_EQ(report.result.status(), proto::RUN_HANG);
  EXPECT_EQ(report.result.signal(), 0);        // the runner's signal is not the subject's crash
  expect_relay_steps_to_fault(report, false);  // a hang has no last words
  EXPECT_EQ(report.result.detail(), bin("fault_hang") +
                                        ": no result within 2000 ms; last step 2 (message 0#1 at actor 1); prefix "
                                        "of 0 messages");
}

TEST_P(RunnerFaults, ReportsAnExitWithoutResult) {
  const auto report = run_fault("fault_early_exit");
  expect_forked_when_asked();
  EXPECT_EQ(report.result.status(), proto::RUN_EXIT_WITHOUT_RESULT);
  EXPECT_EQ(report.result.exit_code(), 7);
  expect_relay_steps_to_fault(report, true);
  EXPECT_EQ(report.events[3].outcome(), proto::STEP_OK);  // exit() ends the run, not the step's actor
  EXPECT_EQ(report.result.detail(), bin("fault_early_exit") + " exited with code 7 without a result after " + kStep3 +
                                        "; prefix of 0 messages");
}

// A program without the hook is refused from its file, before anything of it runs: no process,
// no fork server, and the canary it would create stays absent.
TEST_P(RunnerFaults, RefusesAProgramNotLinkedWithTheHookBeforeRunningIt) {
  const auto canary = ::testing::TempDir() + "not_linked_canary";
  std::remove(canary.c_str());
  const auto report = run_fault("fault_not_linked", {canary});
  EXPECT_EQ(counters_.served_runs(), 0u);
  EXPECT_EQ(counters_.process_runs, 0u);
  EXPECT_FALSE(report.hello_seen);
  EXPECT_TRUE(report.events.empty());
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.detail(),
            bin("fault_not_linked") +
                " is not linked with the exocheck hook and uses no actor framework exocheck attaches to (CAF's "
                "libcaf_core): link it with exocheck::hook, or build it with CAF; nothing was run");
  EXPECT_NE(::access(canary.c_str(), F_OK), 0) << "fault_not_linked ran";
}

// A program built against an older hook (its note says protocol version 1) is refused from its
// file too, both versions named, before anything of it runs.
TEST_P(RunnerFaults, RefusesAProgramWhoseHookSpeaksAnotherProtocolBeforeRunningIt) {
  const auto canary = ::testing::TempDir() + "old_protocol_canary";
  std::remove(canary.c_str());
  const auto report = run_fault("fault_old_protocol", {canary});
  EXPECT_EQ(counters_.process_runs, 0u);
  EXPECT_FALSE(report.hello_seen);
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.detail(), bin("fault_old_protocol") +
                                        " carries an exocheck hook that speaks protocol version 1, this exocheck "
                                        "speaks version 2: rebuild it against this exocheck's hook (exocheck::hook); "
                                        "nothing was run");
  EXPECT_NE(::access(canary.c_str(), F_OK), 0) << "fault_old_protocol ran";
}

// The hook sends its hello at once but batches events, flushing them at exit(), on fatal signals
// and on SIGTERM. _exit() runs none of that: steps 0 to 2 are lost with the process.
TEST(RunnerProcessFaults, ReportsAnImmediateExitWithoutResultAndWithoutTheBufferedSteps) {
  const auto report = run(bin("fault_early_exit"), {"--immediate"});
  EXPECT_TRUE(report.hello_seen);
  EXPECT_TRUE(report.events.empty());
  EXPECT_EQ(report.result.status(), proto::RUN_EXIT_WITHOUT_RESULT);
  EXPECT_EQ(report.result.exit_code(), 7);
  EXPECT_EQ(report.result.detail(),
            bin("fault_early_exit") + " exited with code 7 without a result before any step; prefix of 0 messages");
}

// Garbage written straight to the socket overtakes steps 0 to 2, which are still in the hook's
// buffer: on the wire it comes right after the hello, and nothing after it can be trusted.
TEST(RunnerProcessFaults, ReportsGarbageOnTheChannel) {
  RunReport report;
  const auto taken = milliseconds_taken([&] { report = run(bin("fault_garbage")); });
  EXPECT_LT(taken, 1000);
  EXPECT_TRUE(report.hello_seen);
  EXPECT_TRUE(report.events.empty());
  EXPECT_EQ(report.result.status(), proto::RUN_PROTOCOL_ERROR);
  EXPECT_EQ(report.result.detail(),
            bin("fault_garbage") + ": unparseable frame of 64 bytes before any step; prefix of 0 messages");
}

TEST(RunnerProcessFaults, ReportsAnOversizedFrame) {
  const auto report = run(bin("fault_garbage"), {"--oversized"});
  EXPECT_TRUE(report.events.empty());
  EXPECT_EQ(report.result.status(), proto::RUN_PROTOCOL_ERROR);
  EXPECT_EQ(report.result.detail(),
            bin("fault_garbage") + ": oversized frame of 1073741824 bytes before any step; prefix of 0 messages");
}

TEST(RunnerSubjects, RunsRegistryToCompletionInSixEvents) {
  struct stat info {};
  if (::stat(bin("registry").c_str(), &info) != 0) GTEST_SKIP() << "registry is not built";
  const auto report = run(bin("registry"));
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED) << report.result.detail();
  EXPECT_EQ(steps_of(report), first_steps(6));
  EXPECT_EQ(report.result.steps(), 5u);
  EXPECT_EQ(report.result.exit_code(), 0);
}

TEST(RunnerSubjects, RunsPingpongForExactlyTheRequestedSteps) {
  const auto report = run(bin("pingpong"), {"--steps", "1000"});
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED) << report.result.detail();
  EXPECT_EQ(steps_of(report), first_steps(1001));
  EXPECT_EQ(report.events[1000].actor(), "1");  // hit 1000 lands on "1", as every even hit does
}

TEST(RunnerSubjects, LeaksNoDescriptorOver200RunsOfARealSubject) {
  const auto count_fds = [] {
    std::size_t count = 0;
    for (int fd = 0; fd < 1024; ++fd) count += ::fcntl(fd, F_GETFD) != -1;
    return count;
  };
  const std::size_t before = count_fds();
  for (int i = 0; i < 200; ++i) ASSERT_EQ(run(bin("pingpong"), {"--steps", "5"}).result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(count_fds(), before);
  {
    Runner forking;  // its fork server's socket, pipe, pidfd and event buffer go with it
    for (int i = 0; i < 200; ++i) {
      ASSERT_EQ(forking.run(spec_of(bin("pingpong"), {"--steps", "5"})).result.status(), proto::RUN_COMPLETED);
    }
    EXPECT_EQ(forking.counters().served_runs(), 200u);
  }
  EXPECT_EQ(count_fds(), before);
}

}  // namespace
}  // namespace exocheck::agent::testing
