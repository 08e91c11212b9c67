// RunSpec::defer_prefix_events, through both runners: a run whose result may be lean reports the
// steps after its prefix only, every other run all of its steps, exactly as without deferring.

#include <gtest/gtest.h>

#include "exocheck/wire/result_events.hpp"
#include "runner_fixture.hpp"

namespace exocheck::agent::testing {
namespace {

class DeferredEvents : public ::testing::TestWithParam<bool> {
 protected:
  RunReport run_with(const std::string& subject, const proto::RunRequest& request, bool defer) {
    auto spec = spec_of(bin(subject), {}, std::chrono::milliseconds(5000), request);
    spec.defer_prefix_events = defer;
    return Runner(RunnerOptions{.fork_server = GetParam()}).run(spec);
  }
};

INSTANTIATE_TEST_SUITE_P(Runners, DeferredEvents, ::testing::Bool(), runner_name);

TEST_P(DeferredEvents, ALeanRunReportsTheStepsAfterItsPrefixOnlyAndTheSameOnes) {
  const auto request = registry_prefix();
  const auto deferred = run_with("registry", request, true);
  const auto whole = run_with("registry", request, false);
  ASSERT_EQ(deferred.result.status(), proto::RUN_COMPLETED) << deferred.result.detail();
  ASSERT_TRUE(wire::lean_result(request, deferred.result));
  ASSERT_EQ(whole.events.size(), 6u);
  ASSERT_EQ(deferred.events.size(), 3u);
  for (std::size_t i = 0; i < deferred.events.size(); ++i) {
    EXPECT_EQ(deferred.events[i].SerializeAsString(), whole.events[i + 3].SerializeAsString()) << i;
  }
  EXPECT_EQ(deferred.result.SerializeAsString(), whole.result.SerializeAsString());
}

TEST_P(DeferredEvents, ACrashReportsEveryStepAndNamesTheLastOne) {
  proto::RunRequest request;
  request.add_prefix("env#1");
  request.add_prefix("0#1");
  const auto report = run_with("fault_crash", request, true);
  EXPECT_EQ(report.result.status(), proto::RUN_CRASH);
  expect_relay_steps_to_fault(report, true);
  EXPECT_EQ(report.result.detail(),
            bin("fault_crash") + " crashed with SIGSEGV in " + kStep3 + "; prefix of 2 messages");
}

TEST_P(DeferredEvents, ARunThatCannotBeLeanReportsEveryStep) {
  auto request = registry_prefix();
  request.set_whole_result(true);
  const auto report = run_with("registry", request, true);
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(steps_of(report), first_steps(6));
}

// Optimal DPOR's runs: lean (no text for people, so the sink may take them) yet with every step.
TEST_P(DeferredEvents, ALeanRunAskedForAllStepsReportsEveryStep) {
  auto request = registry_prefix();
  request.set_all_steps(true);
  const auto report = run_with("registry", request, true);
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
  EXPECT_TRUE(wire::lean_result(request, report.result));
  EXPECT_EQ(wire::first_step_to_send(request, report.result), 0u);
  EXPECT_EQ(steps_of(report), first_steps(6));
}

// One report for run after run (Runner::run(spec, report)): each run's events are parsed into the
// messages of the last one's, deferred or not, and come out as in a report of its own.
TEST_P(DeferredEvents, AReportReusedRunAfterRunHoldsWhatAFreshOneWould) {
  const auto lean = registry_prefix();
  auto whole = lean;
  whole.set_whole_result(true);
  proto::RunRequest crash;
  crash.add_prefix("env#1");
  Runner runner(RunnerOptions{.fork_server = GetParam()});
  RunReport reused;
  const std::pair<std::string, proto::RunRequest> runs[] = {
      {"registry", {}}, {"registry", lean}, {"registry", whole}, {"fault_crash", crash}, {"registry", lean}};
  const std::size_t event_counts[] = {6, 3, 6, 4, 3};  // the crash's: steps 0 to 2 and the one it ended
  for (std::size_t r = 0; r < std::size(runs); ++r) {
    auto spec = spec_of(bin(runs[r].first), {}, std::chrono::milliseconds(5000), runs[r].second);
    spec.defer_prefix_events = true;
    runner.run(spec, reused);
    const auto fresh = run_with(runs[r].first, runs[r].second, true);
    ASSERT_EQ(reused.events.size(), event_counts[r]) << "run " << r;
    ASSERT_EQ(fresh.events.size(), event_counts[r]) << "run " << r;
    for (std::size_t i = 0; i < fresh.events.size(); ++i) {
      EXPECT_EQ(reused.events[i].SerializeAsString(), fresh.events[i].SerializeAsString()) << "run " << r << ", " << i;
    }
    proto::RunResult a = reused.result, b = fresh.result;
    a.clear_stderr_tail();
    b.clear_stderr_tail();
    EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString()) << "run " << r;
    EXPECT_EQ(reused.hello_seen, fresh.hello_seen) << "run " << r;
  }
  // Most messages came from earlier runs: after the first run's 6, at most 6 were ever in use.
  EXPECT_EQ(reused.events.size() + reused.spare_events.size(), 6u);
}

// A report keeps at most kSpareEventsKept messages for later runs, however long a run was.
TEST_P(DeferredEvents, AReportKeepsABoundedNumberOfSpareMessages) {
  Runner runner(RunnerOptions{.fork_server = GetParam()});
  RunReport reused;
  runner.run(spec_of(bin("pingpong"), {"--steps", "2000"}), reused);
  ASSERT_EQ(reused.result.status(), proto::RUN_COMPLETED) << reused.result.detail();
  ASSERT_EQ(reused.events.size(), 2001u);
  runner.run(spec_of(bin("registry")), reused);
  ASSERT_EQ(reused.result.status(), proto::RUN_COMPLETED) << reused.result.detail();
  EXPECT_EQ(steps_of(reused), first_steps(6));
  EXPECT_EQ(reused.events.size() + reused.spare_events.size(), kSpareEventsKept);
}

}  // namespace
}  // namespace exocheck::agent::testing
