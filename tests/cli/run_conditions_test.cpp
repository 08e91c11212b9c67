// What a failing run did that real runs rarely do (run_conditions.hpp), on hand-built traces: the
// early firing, the overtaking delivery (one sender, causal, concurrent), the injected fault, each
// with the schedule that leaves it out; and a schedule mended where a replay diverged.
#include "exocheck/agent/run_conditions.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace exocheck::agent {
namespace {

struct Send {
  std::string id, receiver, type;
  proto::TimerKind timer = proto::NOT_A_TIMER;
  std::uint64_t delay_ns = 0;
};

class TraceBuilder {
 public:
  TraceBuilder() { trace_.add_events(); }

  TraceBuilder& created(const std::string& actor, const std::string& type) {
    auto* event = trace_.mutable_events(0);
    event->add_created(actor);
    auto* named = event->add_actor_types();
    named->set_actor(actor);
    named->set_type(type);
    return *this;
  }

  /// Step 0's sends, or a step delivering `message` at `actor` with `clock`, its enabled set and sends.
  TraceBuilder& initial(std::initializer_list<Send> sends) {
    add_sends(*trace_.mutable_events(0), sends);
    return *this;
  }

  proto::Event& step(const std::string& actor, const std::string& message,
                     std::initializer_list<std::pair<std::string, std::uint32_t>> clock,
                     std::initializer_list<std::string> enabled, std::initializer_list<Send> sends = {}) {
    auto* event = trace_.add_events();
    event->set_step(static_cast<std::uint32_t>(trace_.events_size() - 1));
    event->set_actor(actor);
    event->set_message(message);
    for (const auto& [who, count] : clock) {
      auto* entry = event->add_clock();
      entry->set_actor(who);
      entry->set_count(count);
    }
    for (const auto& id : enabled) event->add_enabled(id);
    add_sends(*event, sends);
    return *event;
  }

  const proto::TraceFile& trace() const { return trace_; }

 private:
  static void add_sends(proto::Event& event, std::initializer_list<Send> sends) {
    for (const auto& send : sends) {
      auto* sent = event.add_sent();
      sent->set_id(send.id);
      sent->set_receiver(send.receiver);
      sent->set_type(send.type);
      sent->set_timer(send.timer);
      sent->set_delay_ns(send.delay_ns);
    }
  }

  proto::TraceFile trace_;
};

constexpr std::uint64_t kMs = 1'000'000;

// retry's run: main asks 0 (Account) for a deposit with a 100 ms call timeout; the timeout fires
// first, and the retry is taken before the first request.
TraceBuilder retry_run() {
  TraceBuilder run;
  run.created("0", "Account").created("1", "Client");
  run.initial({{"1#1", "0", "Deposit"}, {"1#2", "1", "Timeout", proto::TIMER_CALL_TIMEOUT, 100 * kMs}});
  auto& firing = run.step("1", "1#2", {{"1", 1}}, {"1#1", "1#2"},
                          {{"1#3", "0", "Deposit"}, {"1#4", "1", "Timeout", proto::TIMER_CALL_TIMEOUT, 100 * kMs}});
  firing.set_timer(proto::TIMER_CALL_TIMEOUT);
  run.step("0", "1#3", {{"0", 1}, {"1", 1}}, {"1#1", "1#3", "1#4"}, {{"0#1", "1", "Reply"}});
  run.step("0", "1#1", {{"0", 2}, {"1", 1}}, {"1#1", "1#4", "0#1"}, {{"0#2", "1", "Reply"}});
  run.step("1", "0#1", {{"0", 1}, {"1", 2}}, {"1#4", "0#1"});
  return run;
}

void expect_condition(const RunCondition& condition, ConditionKind kind, std::uint32_t step, const std::string& text,
                      const Schedule& without, std::size_t changed_at) {
  EXPECT_EQ(condition.kind, kind) << text;
  EXPECT_EQ(condition.step, step) << text;
  EXPECT_EQ(condition.text, text);
  EXPECT_EQ(condition.without, without) << text;
  EXPECT_EQ(condition.changed_at, changed_at) << text;
}

// Each with the schedule that leaves it out: the message overtaken delivered first.
TEST(RunConditions, TheRetryRunsTimeoutFiresEarlyAndItsRetryOvertakesTheRequestFromTheSameSender) {
  const auto conditions = conditions_of(retry_run().trace());
  ASSERT_EQ(conditions.size(), 2U);
  expect_condition(conditions[0], ConditionKind::kEarlyFiring, 1,
                   "the 100 ms call timeout 1#2 of 1 (Client) firing at step 1 before 1#1 (Deposit to 0) is "
                   "delivered, sent 100 ms earlier at step 0",
                   {"1#1", "1#2", "1#3", "0#1"}, 1);
  expect_condition(conditions[1], ConditionKind::kOvertaking, 2,
                   "1#3 (Deposit from 1) delivered to 0 (Account) at step 2 before 1#1 (Deposit from 1), sent before "
                   "it by the same actor (delivery that is not FIFO)",
                   {"1#2", "1#1", "1#3", "0#1"}, 2);
}

TEST(RunConditions, OvertakingAcrossSendersCountsOnlyWhenTheOvertakenWasSentCausallyBefore) {
  // 0 tells 2 something, then asks 1 to tell 2 something else: 1's message is causally after 0's.
  // 3's message to 2 is concurrent with both.
  TraceBuilder run;
  run.created("0", "Source").created("1", "Relay").created("2", "Sink").created("3", "Other");
  run.initial({{"env#1", "0", "Go"}, {"env#2", "3", "Go"}});
  run.step("0", "env#1", {{"0", 1}}, {"env#1", "env#2"}, {{"0#1", "2", "First"}, {"0#2", "1", "Forward"}});
  run.step("3", "env#2", {{"3", 1}}, {"0#1", "0#2", "env#2"}, {{"3#1", "2", "Aside"}});
  run.step("1", "0#2", {{"0", 1}, {"1", 1}}, {"0#1", "0#2", "3#1"}, {{"1#1", "2", "Second"}});
  run.step("2", "3#1", {{"2", 1}, {"3", 1}}, {"0#1", "3#1", "1#1"});
  run.step("2", "1#1", {{"0", 1}, {"1", 1}, {"2", 2}, {"3", 1}}, {"0#1", "1#1"});
  const auto conditions = conditions_of(run.trace());
  ASSERT_EQ(conditions.size(), 1U);
  EXPECT_EQ(conditions[0].step, 5U);
  EXPECT_EQ(conditions[0].text,
            "1#1 (Second from 1) delivered to 2 (Sink) at step 5 before 0#1 (First from 0), sent causally before it "
            "(delivery weaker than causal)");
  EXPECT_EQ(conditions[0].without, (Schedule{"env#1", "env#2", "0#2", "3#1", "0#1", "1#1"}));
}

TEST(RunConditions, AnInjectedFaultIsACondition_ItsScheduleMakesTheSameChoiceWithoutIt) {
  TraceBuilder run;
  run.created("0", "Participant");
  run.initial({{"env#1", "0", "Prepare"}});
  auto& crashed = run.step("0", "env#1", {{"0", 1}}, {"env#1"});
  auto* chosen = crashed.add_choices();
  chosen->set_range(3);
  chosen->set_value(2);
  auto* fault = crashed.add_choices();
  fault->set_range(2);
  fault->set_value(1);
  fault->set_fault_choice(true);
  fault->set_fault(proto::FAULT_CRASH);
  const auto conditions = conditions_of(run.trace());
  ASSERT_EQ(conditions.size(), 1U);
  EXPECT_EQ(conditions[0].kind, ConditionKind::kFault);
  EXPECT_EQ(conditions[0].text, "a crash of 0 (Participant) after step 1");
  EXPECT_EQ(conditions[0].without, (Schedule{"env#1?2"}));
  EXPECT_EQ(conditions[0].changed_at, 1U);
}

TEST(RunConditions, AFiringWithNothingSentBeforeItsDueTimeWaitingIsNoCondition) {
  // The reply comes only after the firing (its request is sent then): a late reply is no early firing.
  TraceBuilder run;
  run.created("0", "Client");
  run.initial({{"0#1", "0", "Tick", proto::TIMER_ONCE, 5 * kMs}});
  auto& firing = run.step("0", "0#1", {{"0", 1}}, {"0#1"}, {{"0#2", "0", "Tick", proto::TIMER_ONCE, 5 * kMs}});
  firing.set_timer(proto::TIMER_ONCE);
  EXPECT_TRUE(conditions_of(run.trace()).empty());
}

TEST(RunConditions, AReplayThatDivergedAtARenumberedMessageIsMendedWithTheSameKindEnabledThere) {
  const auto original = retry_run().trace();
  TraceBuilder replay;
  replay.created("0", "Account").created("1", "Client");
  replay.initial({{"1#1", "0", "Deposit"}, {"1#2", "1", "Timeout", proto::TIMER_CALL_TIMEOUT, 100 * kMs}});
  replay.step("0", "1#1", {{"0", 1}}, {"1#1", "1#2"}, {{"0#1", "1", "Reply"}});
  auto diverged = replay.trace();
  diverged.mutable_result()->set_status(proto::RUN_DIVERGENCE);
  diverged.mutable_result()->set_divergence_index(1);
  diverged.mutable_result()->add_divergence_enabled("1#2");
  diverged.mutable_result()->add_divergence_enabled("0#1");
  // The original run's reply 0#2 is this replay's 0#1; its retry 1#3 (a Deposit) has no match
  // here: it goes, as does a label the original run never sent.
  EXPECT_EQ(mended_at_divergence(original, {"1#1", "0#2", "1#2"}, diverged), (Schedule{"1#1", "0#1", "1#2"}));
  EXPECT_EQ(mended_at_divergence(original, {"1#1", "1#3", "1#2"}, diverged), (Schedule{"1#1", "1#2"}));
  EXPECT_EQ(mended_at_divergence(original, {"1#1", "0#9"}, diverged), (Schedule{"1#1"}));
  // Not within the schedule, or no divergence: nothing to mend.
  EXPECT_EQ(mended_at_divergence(original, {"1#1"}, diverged), std::nullopt);
  EXPECT_EQ(mended_at_divergence(original, {"1#1", "0#2"}, replay.trace()), std::nullopt);
}

}  // namespace
}  // namespace exocheck::agent
