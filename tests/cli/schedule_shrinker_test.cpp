// The shrinker's logic on its own: ddmin's result and tests, and the causal past of a step.

#include "exocheck/agent/schedule_shrinker.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace exocheck::agent {
namespace {

bool contains_in_order(const Schedule& schedule, const Schedule& needed) {
  auto at = schedule.begin();
  for (const auto& id : needed) {
    at = std::find(at, schedule.end(), id);
    if (at == schedule.end()) return false;
    ++at;
  }
  return true;
}

TEST(ScheduleShrinker, MinimizeKeepsExactlyWhatTheFailureNeedsInOrder) {
  const Schedule schedule{"a", "b", "c", "d", "e", "f", "g", "h"};
  std::size_t tests = 0;
  const auto shrunk = minimize(schedule, [&](const Schedule& candidate) {
    ++tests;
    return contains_in_order(candidate, {"b", "f", "g"});
  });
  EXPECT_EQ(shrunk, (Schedule{"b", "f", "g"}));
  EXPECT_LE(tests, 40u);
}

TEST(ScheduleShrinker, MinimizeReturnsTheScheduleWhenNothingCanGo) {
  const Schedule schedule{"x", "y"};
  EXPECT_EQ(minimize(schedule, [](const Schedule& c) { return c.size() == 2; }), schedule);
}

TEST(ScheduleShrinker, MinimizeStopsAfterItsBudgetOfTests) {
  Schedule schedule;
  for (int i = 0; i < 64; ++i) schedule.push_back(std::to_string(i));
  std::size_t tests = 0;
  const auto shrunk = minimize(
      schedule,
      [&](const Schedule& c) {
        ++tests;
        return c.size() >= 32;
      },
      5);
  EXPECT_EQ(tests, 5u);
  EXPECT_GE(shrunk.size(), 32u);
}

proto::Event* step(proto::TraceFile& trace, const std::string& actor, const std::string& message) {
  auto* event = trace.add_events();
  event->set_step(static_cast<std::uint32_t>(trace.events_size() - 1));
  event->set_actor(actor);
  event->set_message(message);
  return event;
}

void sends(proto::Event* event, const std::string& id, const std::string& to) {
  auto* sent = event->add_sent();
  sent->set_id(id);
  sent->set_receiver(to);
}

TEST(ScheduleShrinker, TheCausalPastOfAStepIsWhatItsActorAndItsMessagesDependOn) {
  proto::TraceFile trace;
  auto* main = step(trace, "env", "");
  main->add_created("0");
  main->add_created("1");
  main->add_created("2");
  sends(main, "env#1", "0");
  sends(main, "env#2", "1");
  sends(main, "env#3", "2");
  sends(step(trace, "0", "env#1"), "0#1", "1");  // 1
  step(trace, "2", "env#3");                     // 2: unrelated to actor 1
  step(trace, "1", "env#2");                     // 3
  step(trace, "1", "0#1");                       // 4: the failing step
  EXPECT_EQ(causal_past(trace, 4), (Schedule{"env#1", "env#2", "0#1"}));
  EXPECT_EQ(causal_past(trace, 2), (Schedule{"env#3"}));
  trace.mutable_events(4)->set_outcome(proto::STEP_ASSERTION_FAILED);
  EXPECT_EQ(failed_step(trace), 4u);
  EXPECT_EQ(schedule_of_trace(trace), (Schedule{"env#1", "env#3", "env#2", "0#1"}));
}

TEST(ScheduleShrinker, FailingTheSameWayNeedsTheSameFailingStep) {
  proto::TraceFile a;
  step(a, "env", "");
  auto* failing = step(a, "1", "0#1");
  failing->set_type("Reply");
  failing->set_outcome(proto::STEP_ASSERTION_FAILED);
  failing->set_detail("v1=0 but v2=1");
  a.mutable_result()->set_status(proto::RUN_ASSERTION_FAILED);
  proto::TraceFile b = a;
  EXPECT_TRUE(fails_the_same_way(a, b));
  b.mutable_events(1)->set_detail("v1=1 but v2=2");
  EXPECT_FALSE(fails_the_same_way(a, b));
  b = a;
  b.mutable_result()->set_status(proto::RUN_STEP_LIMIT);
  EXPECT_FALSE(fails_the_same_way(a, b));
}

}  // namespace
}  // namespace exocheck::agent
