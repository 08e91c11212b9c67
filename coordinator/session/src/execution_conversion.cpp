#include "exocheck/coordinator/execution_conversion.hpp"

#include <algorithm>

#include "exocheck/endings/run_ending.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/strategy.hpp"
#include "exocheck/options/timers.hpp"
#include "exocheck/wire/delivery_label.hpp"

namespace exocheck::coordinator {
namespace {

void assign_clock(const google::protobuf::RepeatedPtrField<proto::ClockEntry>& wire,
                  std::vector<std::pair<std::string, std::uint32_t>>& clock) {
  clock.resize(static_cast<std::size_t>(wire.size()));
  for (int i = 0; i < wire.size(); ++i) {
    clock[static_cast<std::size_t>(i)].first = wire.Get(i).actor();
    clock[static_cast<std::size_t>(i)].second = wire.Get(i).count();
  }
}

// Assigns into `step` so that a reused step keeps its strings' and vectors' storage.
void fill_step(const proto::Event& event, engine::Step& step) {
  if (event.step() == 0) {
    step.actor.clear();
  } else {
    step.actor = event.actor();
  }
  step.message = event.message();
  step.sent.resize(static_cast<std::size_t>(event.sent_size()));
  for (int i = 0; i < event.sent_size(); ++i) {
    step.sent[static_cast<std::size_t>(i)].id = event.sent(i).id();
    step.sent[static_cast<std::size_t>(i)].receiver = event.sent(i).receiver();
    step.sent[static_cast<std::size_t>(i)].timer = event.sent(i).timer() != proto::NOT_A_TIMER;
    step.sent[static_cast<std::size_t>(i)].quiescent = event.sent(i).quiescent();
    step.sent[static_cast<std::size_t>(i)].rejected_at.assign(event.sent(i).rejected_at().begin(),
                                                              event.sent(i).rejected_at().end());
    assign_clock(event.sent(i).start_clock(), step.sent[static_cast<std::size_t>(i)].start_clock);
  }
  step.created.assign(event.created().begin(), event.created().end());
  step.enabled.assign(event.enabled().begin(), event.enabled().end());
  assign_clock(event.clock(), step.clock);
  assign_clock(event.start_clock(), step.start_clock);
  step.destroyed = event.destroyed();
  // Messages withdrawn (a cancelled timer, a dropped reply) are lost in their step as dead letters are.
  step.dead_letters.assign(event.dead_letters().begin(), event.dead_letters().end());
  step.dead_letters.insert(step.dead_letters.end(), event.cancelled().begin(), event.cancelled().end());
  step.reply = event.reply();
  std::vector<std::uint32_t> ranges, values;
  for (const auto& choice : event.choices()) {
    ranges.push_back(choice.range());
    values.push_back(choice.value());
  }
  take_choices(ranges, values, step);
  step.timer = event.timer() != proto::NOT_A_TIMER;
  step.quiescent = event.quiescent();
  step.notified = event.notifications_size() != 0;
  step.monitor_lanes.clear();
  for (const auto& notification : event.notifications()) {
    if (notification.lanes().empty()) step.monitor_lanes.push_back(notification.monitor());
    step.monitor_lanes.insert(step.monitor_lanes.end(), notification.lanes().begin(), notification.lanes().end());
  }
  step.failed = event.outcome() != proto::STEP_OK;
}

}  // namespace

std::vector<const proto::Event*> pointers_to(const std::vector<proto::Event>& events) {
  std::vector<const proto::Event*> pointers;
  pointers.reserve(events.size());
  for (const auto& event : events) pointers.push_back(&event);
  return pointers;
}

void to_execution(EventSpan events, const proto::RunResult& result, engine::Execution& execution) {
  // Without step 0, the run left out its prefix (wire/result_events.hpp).
  execution.first_step = !events.empty() && events.front()->step() > 0 ? events.front()->step() : 0;
  std::size_t steps = 0;
  for (const proto::Event* event : events) steps += event->step() == 0 ? 0 : 1;
  execution.steps.resize(steps);
  std::size_t next = 0;
  for (const proto::Event* event : events)
    fill_step(*event, event->step() == 0 ? execution.initial : execution.steps[next++]);
  if (execution.first_step != 0) execution.initial = {};
  take_verdict(result, execution);
}

void take_verdict(const proto::RunResult& result, engine::Execution& execution) {
  execution.ending = endings::to_ending(result.status());
  execution.detail = result.detail();
  execution.final_state.assign(result.final_state().begin(), result.final_state().end());
  execution.faulted = result.faults() != 0;
}

void take_choices(const std::vector<std::uint32_t>& ranges, const std::vector<std::uint32_t>& values,
                  engine::Step& step) {
  step.label.clear();
  step.alternatives.clear();
  if (values.empty()) return;
  if (std::any_of(values.begin(), values.end(), [](std::uint32_t v) { return v != 0; })) {
    step.label = wire::delivery_label(step.message, values);
  }
  step.alternatives = wire::alternative_labels(step.message, ranges, values);
}

engine::Execution to_execution(EventSpan events, const proto::RunResult& result) {
  engine::Execution execution;
  to_execution(events, result, execution);
  return execution;
}

void to_request(const engine::WorkItem& item, const RunConditions& conditions, proto::RunRequest& request) {
  to_request(conditions, item.prefix, item.ranking, request);
  for (const auto& id : item.sleep) request.add_sleep(id);
  for (const auto& id : item.sleep_notifying) request.add_sleep_notifying(id);
  for (const auto& lanes : item.sleep_notifying_lanes) {
    auto* sleeper = request.add_sleep_notifying_lanes();
    for (const auto& lane : lanes) sleeper->add_lanes(lane);
  }
  request.set_wakeup_entries(static_cast<std::uint32_t>(item.wakeup_entries));
  if (item.sample) {
    request.set_heuristic(options::to_hook(item.sample->strategy));
    request.set_seed(item.sample->seed);
    request.set_pct_depth(item.sample->pct_depth);
    request.set_pct_steps(item.sample->pct_steps);
  }
}

}  // namespace exocheck::coordinator
