// replay_check: the first difference between a recorded and a replayed trace, one line, or nothing.

#include "exocheck/agent/replay_check.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "sample_traces.hpp"

namespace exocheck::cli_test {
namespace {

using agent::first_difference;

TEST(ReplayCheck, IdenticalTracesHaveNoDifference) {
  EXPECT_EQ(first_difference(sample_trace(), sample_trace()), std::nullopt);
}

TEST(ReplayCheck, SelfDescriptionIsNotCompared) {
  auto replay = sample_trace();
  replay.set_subject("/elsewhere/registry");
  replay.add_prefix("env#1");
  replay.set_tool_version("9.9.9");
  EXPECT_EQ(first_difference(sample_trace(), replay), std::nullopt);
}

struct FieldCase {
  const char* name;
  std::function<void(proto::TraceFile&)> change;
  std::string expected;
};

class ReplayCheckField : public testing::TestWithParam<FieldCase> {};

TEST_P(ReplayCheckField, NamesTheFirstDifferentField) {
  auto replay = sample_trace();
  GetParam().change(replay);
  EXPECT_EQ(first_difference(sample_trace(), replay), GetParam().expected);
}

proto::Event& event(proto::TraceFile& trace, int index) {
  return *trace.mutable_events(index);
}

INSTANTIATE_TEST_SUITE_P(
    EveryField, ReplayCheckField,
    testing::Values(
        FieldCase{"message", [](auto& t) { event(t, 2).set_message("0#2"); },
                  "step 2: recorded message 0#1 at actor 0.1, replay delivered 0#2 at actor 0.1"},
        FieldCase{"actor", [](auto& t) { event(t, 2).set_actor("0.2"); },
                  "step 2: recorded message 0#1 at actor 0.1, replay delivered 0#1 at actor 0.2"},
        FieldCase{"step", [](auto& t) { event(t, 3).set_step(4); }, "event 3: recorded step number 3, replay 4"},
        FieldCase{"sender", [](auto& t) { event(t, 1).set_sender("1"); }, "step 1: recorded sender env, replay 1"},
        FieldCase{"type", [](auto& t) { event(t, 1).set_type("Stop"); }, "step 1: recorded type Start, replay Stop"},
        FieldCase{"summary", [](auto& t) { event(t, 2).set_summary("Register{worker=2}"); },
                  "step 2: recorded summary 'Register{worker=1}', replay 'Register{worker=2}'"},
        FieldCase{"clock", [](auto& t) { event(t, 3).mutable_clock(0)->set_count(3); },
                  "step 3: recorded clock {0:2, 0.1:1}, replay {0:3, 0.1:1}"},
        FieldCase{"sent", [](auto& t) { event(t, 1).mutable_sent(0)->set_receiver("0.2"); },
                  "step 1: recorded sent [0#1 Register to 0.1], replay [0#1 Register to 0.2]"},
        FieldCase{"created", [](auto& t) { event(t, 1).add_created("0.2"); },
                  "step 1: recorded created [0.1], replay [0.1, 0.2]"},
        FieldCase{"enabled", [](auto& t) { event(t, 3).add_enabled("0#9"); },
                  "step 3: recorded enabled [0.1#1], replay [0.1#1, 0#9]"},
        FieldCase{"outcome",
                  [](auto& t) {
                    event(t, 3).set_outcome(proto::STEP_ASSERTION_FAILED);
                    event(t, 3).set_detail("v1 != v2");
                  },
                  "step 3: recorded outcome STEP_OK, replay STEP_ASSERTION_FAILED"},
        FieldCase{"detail", [](auto& t) { event(t, 3).set_detail("late"); },
                  "step 3: recorded detail '', replay 'late'"},
        FieldCase{"destroyed", [](auto& t) { event(t, 3).set_destroyed(false); },
                  "step 3: recorded destroyed yes, replay no"},
        FieldCase{"dead_letters", [](auto& t) { event(t, 3).add_dead_letters("0.1#2"); },
                  "step 3: recorded dead letters [], replay [0.1#2]"},
        FieldCase{"initial_step", [](auto& t) { event(t, 0).add_created("1"); },
                  "step 0: recorded created [0], replay [0, 1]"},
        FieldCase{"earliest_wins",
                  [](auto& t) {
                    event(t, 3).set_summary("Ack{late}");
                    event(t, 1).set_summary("Start{early}");
                  },
                  "step 1: recorded summary 'Start{}', replay 'Start{early}'"},
        FieldCase{"replay_shorter",
                  [](auto& t) {
                    t.mutable_events()->RemoveLast();
                    t.mutable_result()->set_status(proto::RUN_CRASH);
                  },
                  "step 3: recorded message 0.1#1 at actor 0, replay ended after 3 events"},
        FieldCase{"replay_longer",
                  [](auto& t) {
                    auto& extra = *t.add_events();
                    extra.set_step(4);
                    extra.set_actor("0.1");
                    extra.set_message("0#2");
                  },
                  "step 4: replay delivered message 0#2 at actor 0.1, recorded run ended after 4 events"},
        FieldCase{"result_status", [](auto& t) { t.mutable_result()->set_status(proto::RUN_DEADLOCK); },
                  "result: recorded RUN_COMPLETED, replay RUN_DEADLOCK"},
        FieldCase{"final_state", [](auto& t) { t.mutable_result()->set_final_state(0, "0.1: nobody"); },
                  "final state: recorded [0.1: registered], replay [0.1: nobody]"}),
    [](const testing::TestParamInfo<FieldCase>& info) { return std::string(info.param.name); });

TEST(ReplayCheck, ResultDetailAloneIsNoDifference) {
  auto replay = sample_trace();
  replay.mutable_result()->set_detail("quiescent after 3 steps (pid 4242)");
  EXPECT_EQ(first_difference(sample_trace(), replay), std::nullopt);
}

}  // namespace
}  // namespace exocheck::cli_test
