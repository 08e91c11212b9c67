// What an agent sends back of a run (wire/result_events.hpp), and that the coordinator reads a
// result without its prefix as the continuation of the prefix's steps.
#include <gtest/gtest.h>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/wire/result_events.hpp"

namespace exocheck::coordinator::testing {
namespace {

proto::RunRequest request_with_prefix(int length, proto::Heuristic heuristic = proto::FIFO) {
  proto::RunRequest request;
  for (int i = 1; i <= length; ++i) request.add_prefix("env#" + std::to_string(i));
  request.set_heuristic(heuristic);
  return request;
}

proto::RunResult result_with(proto::RunStatus status) {
  proto::RunResult result;
  result.set_status(status);
  return result;
}

std::vector<proto::Event> events_of_steps(int steps) {
  std::vector<proto::Event> events(static_cast<std::size_t>(steps) + 1);
  for (int k = 0; k <= steps; ++k) {
    auto& event = events[static_cast<std::size_t>(k)];
    event.set_step(static_cast<std::uint32_t>(k));
    if (k > 0) {
      event.set_actor("0");
      event.set_message("env#" + std::to_string(k));
      event.set_summary("Ping{n=" + std::to_string(k) + "}");
    }
  }
  return events;
}

TEST(ResultEvents, APlainRunLeavesOutItsPrefix) {
  const auto request = request_with_prefix(2);
  for (auto status : {proto::RUN_COMPLETED, proto::RUN_SLEEP_BLOCKED}) {
    const auto result = result_with(status);
    EXPECT_TRUE(wire::lean_result(request, result));
    EXPECT_EQ(wire::first_step_to_send(request, result), 2u);
    EXPECT_EQ(wire::first_event_to_send(events_of_steps(4), request, result), 2u);
  }
}

TEST(ResultEvents, BugsLostMessagesAndRankedRunsAreSentWhole) {
  const auto request = request_with_prefix(2);
  for (auto status : {proto::RUN_DEADLOCK, proto::RUN_ASSERTION_FAILED, proto::RUN_EXCEPTION, proto::RUN_CRASH,
                      proto::RUN_HANG, proto::RUN_DIVERGENCE, proto::RUN_STEP_LIMIT, proto::RUN_PROTOCOL_ERROR}) {
    EXPECT_FALSE(wire::lean_result(request, result_with(status))) << proto::RunStatus_Name(status);
    EXPECT_EQ(wire::first_event_to_send(events_of_steps(4), request, result_with(status)), 0u);
  }
  auto lost = result_with(proto::RUN_COMPLETED);
  lost.add_dead_letters("env#1");
  EXPECT_EQ(wire::first_step_to_send(request, lost), 0u);
  EXPECT_EQ(wire::first_step_to_send(request_with_prefix(2, proto::RANKED), result_with(proto::RUN_COMPLETED)), 0u);
}

TEST(ResultEvents, StrippingKeepsWhatExplorationReads) {
  auto event = events_of_steps(1).back();
  event.set_type("Ping");
  event.set_sender("env");
  auto& sent = *event.add_sent();
  sent.set_id("0#1");
  sent.set_receiver("1");
  sent.set_type("Pong");
  event.add_enabled("env#1");
  wire::strip_for_exploration(event);
  EXPECT_TRUE(event.summary().empty());
  EXPECT_TRUE(event.type().empty());
  EXPECT_TRUE(event.sender().empty());
  EXPECT_TRUE(event.sent(0).type().empty());
  EXPECT_EQ(event.sent(0).id(), "0#1");
  EXPECT_EQ(event.sent(0).receiver(), "1");
  EXPECT_EQ(event.message(), "env#1");
  EXPECT_EQ(event.enabled_size(), 1);
}

TEST(ResultEvents, AResultWithoutItsPrefixStartsAtItsFirstStep) {
  const auto events = events_of_steps(4);
  const auto pointers = pointers_to(events);
  const auto whole = to_execution(pointers, result_with(proto::RUN_COMPLETED));
  EXPECT_EQ(whole.first_step, 0u);
  EXPECT_EQ(whole.steps.size(), 4u);
  const auto lean = to_execution(EventSpan(pointers).subspan(2), result_with(proto::RUN_COMPLETED));
  EXPECT_EQ(lean.first_step, 2u);
  ASSERT_EQ(lean.steps.size(), 3u);
  EXPECT_EQ(lean.steps.front().message, "env#2");
  // A reused conversion forgets what the last one had.
  engine::Execution reused = whole;
  to_execution(EventSpan(pointers).subspan(2), result_with(proto::RUN_COMPLETED), reused);
  EXPECT_EQ(reused.first_step, 2u);
  EXPECT_EQ(reused.steps.size(), 3u);
  EXPECT_TRUE(reused.initial.actor.empty());
}

}  // namespace
}  // namespace exocheck::coordinator::testing
