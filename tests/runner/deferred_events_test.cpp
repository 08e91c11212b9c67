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

INSTANTIATE_TEST_SUITE_P(Runners, DeferredEvents, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "ForkServer" : "ProcessPerRun"; });

// The first three messages registry's FIFO run delivers, as a prefix to replay.
proto::RunRequest registry_prefix() {
  const auto whole = Runner(RunnerOptions{.fork_server = false}).run(spec_of(bin("registry")));
  proto::RunRequest request;
  for (int step = 1; step <= 3; ++step) request.add_prefix(whole.events.at(step).message());
  return request;
}

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
  expect_relay_steps_before_fault(report);
  EXPECT_EQ(report.result.detail(),
            bin("fault_crash") + " crashed with SIGSEGV " + kAfterStep2 + "; prefix of 2 messages");
}

TEST_P(DeferredEvents, ARunThatCannotBeLeanReportsEveryStep) {
  auto request = registry_prefix();
  request.set_whole_result(true);
  const auto report = run_with("registry", request, true);
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
  EXPECT_EQ(steps_of(report), first_steps(6));
}

}  // namespace
}  // namespace exocheck::agent::testing
