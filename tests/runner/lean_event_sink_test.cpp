// RunSpec::lean_events, through both runners: a clean run whose result may be lean hands every
// event, as the hook serialized it, to the sink and reports none itself; any other run is
// reported as without a sink; events the sink refuses make the run a protocol error.

#include <gtest/gtest.h>

#include "exocheck/wire/result_events.hpp"
#include "runner_fixture.hpp"

namespace exocheck::agent::testing {
namespace {

/// Keeps what it is handed; refuses it with `problem` when set.
class RecordingSink final : public LeanEventSink {
 public:
  std::optional<std::string> take(std::string_view bytes, std::span<const std::size_t> ends, std::size_t first_step,
                                  const proto::RunResult& result) override {
    ++calls;
    events.clear();
    for (std::size_t i = 0, begin = 0; i < ends.size(); begin = ends[i++]) {
      if (!events.emplace_back().ParseFromArray(bytes.data() + begin, static_cast<int>(ends[i] - begin)))
        return "event " + std::to_string(i) + " does not parse";
    }
    this->first_step = first_step;
    status = result.status();
    return problem;
  }

  int calls = 0;
  std::vector<proto::Event> events;
  std::size_t first_step = 0;
  proto::RunStatus status = proto::RUN_UNKNOWN;
  std::optional<std::string> problem;
};

class LeanEvents : public ::testing::TestWithParam<bool> {
 protected:
  RunReport run_with(const std::string& subject, const proto::RunRequest& request, LeanEventSink* sink) {
    auto spec = spec_of(bin(subject), {}, std::chrono::milliseconds(5000), request);
    spec.lean_events = sink;
    return Runner(RunnerOptions{.fork_server = GetParam()}).run(spec);
  }
};

INSTANTIATE_TEST_SUITE_P(Runners, LeanEvents, ::testing::Bool(), runner_name);

TEST_P(LeanEvents, ALeanRunHandsEveryEventToTheSinkAsTheHookWroteIt) {
  const auto request = registry_prefix();
  RecordingSink sink;
  const auto taken = run_with("registry", request, &sink);
  const auto whole = run_with("registry", request, nullptr);
  ASSERT_EQ(taken.result.status(), proto::RUN_COMPLETED) << taken.result.detail();
  EXPECT_TRUE(taken.events_taken);
  EXPECT_TRUE(taken.events.empty());
  ASSERT_EQ(sink.calls, 1);
  EXPECT_EQ(sink.first_step, 3u);  // the prefix's steps, which a lean result leaves out
  EXPECT_EQ(sink.status, proto::RUN_COMPLETED);
  ASSERT_EQ(whole.events.size(), 6u);
  ASSERT_EQ(sink.events.size(), 6u);
  for (std::size_t i = 0; i < whole.events.size(); ++i) {
    EXPECT_EQ(sink.events[i].SerializeAsString(), whole.events[i].SerializeAsString()) << i;
  }
  EXPECT_EQ(taken.result.SerializeAsString(), whole.result.SerializeAsString());
}

TEST_P(LeanEvents, ALeanRunAskedForAllStepsHandsTheSinkEveryStepFromStepZero) {
  auto request = registry_prefix();
  request.set_all_steps(true);
  RecordingSink sink;
  const auto taken = run_with("registry", request, &sink);
  ASSERT_EQ(taken.result.status(), proto::RUN_COMPLETED) << taken.result.detail();
  EXPECT_TRUE(taken.events_taken);
  ASSERT_EQ(sink.calls, 1);
  EXPECT_EQ(sink.first_step, 0u);
  EXPECT_EQ(sink.events.size(), 6u);
}

TEST_P(LeanEvents, ARunThatCannotBeLeanIsReportedWithoutTheSink) {
  auto request = registry_prefix();
  request.set_whole_result(true);
  RecordingSink sink;
  const auto whole = run_with("registry", request, &sink);
  EXPECT_EQ(whole.result.status(), proto::RUN_COMPLETED);
  EXPECT_FALSE(whole.events_taken);
  EXPECT_EQ(steps_of(whole), first_steps(6));

  proto::RunRequest crash;
  crash.add_prefix("env#1");
  crash.add_prefix("0#1");
  const auto crashed = run_with("fault_crash", crash, &sink);
  EXPECT_EQ(crashed.result.status(), proto::RUN_CRASH);
  EXPECT_FALSE(crashed.events_taken);
  expect_relay_steps_to_fault(crashed, true);
  EXPECT_EQ(sink.calls, 0);
}

// The sink is exocheck's: events it cannot take are exocheck's failure, not the program's bug.
TEST_P(LeanEvents, EventsTheSinkRefusesMakeTheRunExochecksFailureWithEveryStep) {
  const auto request = registry_prefix();
  RecordingSink sink;
  sink.problem = "the sink's own words";
  const auto report = run_with("registry", request, &sink);
  EXPECT_EQ(sink.calls, 1);
  EXPECT_EQ(report.result.status(), proto::RUN_EXOCHECK_FAILED);
  EXPECT_FALSE(report.events_taken);
  EXPECT_EQ(steps_of(report), first_steps(6));
  const auto& detail = report.result.detail();
  EXPECT_EQ(detail.rfind(bin("registry") + ": the sink's own words after step 5 (message ", 0), 0u) << detail;
  EXPECT_TRUE(detail.ends_with("; prefix of 3 messages")) << detail;
  EXPECT_EQ(report.result.steps(), 5u);
}

}  // namespace
}  // namespace exocheck::agent::testing
