#include "exocheck/coordinator/execution_conversion.hpp"

#include "exocheck/wire/frame.hpp"

namespace exocheck::coordinator {
namespace {

engine::Step to_step(const proto::Event& event) {
  engine::Step step;
  step.actor = event.step() == 0 ? std::string() : event.actor();
  step.message = event.message();
  for (const auto& sent : event.sent()) step.sent.push_back({sent.id(), sent.receiver()});
  step.created.assign(event.created().begin(), event.created().end());
  step.enabled.assign(event.enabled().begin(), event.enabled().end());
  for (const auto& entry : event.clock()) step.clock.emplace_back(entry.actor(), entry.count());
  step.destroyed = event.destroyed();
  step.dead_letters.assign(event.dead_letters().begin(), event.dead_letters().end());
  step.reply = event.reply();
  step.failed = event.outcome() != proto::STEP_OK;
  return step;
}

proto::Heuristic to_hook_heuristic(engine::Heuristic heuristic) {
  switch (heuristic) {
    case engine::Heuristic::kFifo:
      return proto::FIFO;
    case engine::Heuristic::kLifo:
      return proto::LIFO;
    case engine::Heuristic::kEca:
      return proto::ECA;
    case engine::Heuristic::kLca:
      return proto::LCA;
    case engine::Heuristic::kLdm:
      return proto::LDM;
    case engine::Heuristic::kHdm:
      return proto::HDM;
    case engine::Heuristic::kHms:
    case engine::Heuristic::kSgr:
      return proto::RANKED;
  }
  return proto::FIFO;
}

}  // namespace

engine::Ending to_ending(proto::RunStatus status) {
  switch (status) {
    case proto::RUN_COMPLETED:
      return engine::Ending::kCompleted;
    case proto::RUN_DEADLOCK:
      return engine::Ending::kDeadlock;
    case proto::RUN_ASSERTION_FAILED:
      return engine::Ending::kAssertion;
    case proto::RUN_EXCEPTION:
      return engine::Ending::kException;
    case proto::RUN_STEP_LIMIT:
      return engine::Ending::kStepLimit;
    case proto::RUN_DIVERGENCE:
      return engine::Ending::kDivergence;
    case proto::RUN_SLEEP_BLOCKED:
      return engine::Ending::kSleepBlocked;
    default:
      return engine::Ending::kCrash;
  }
}

std::vector<const proto::Event*> pointers_to(const std::vector<proto::Event>& events) {
  std::vector<const proto::Event*> pointers;
  pointers.reserve(events.size());
  for (const auto& event : events) pointers.push_back(&event);
  return pointers;
}

engine::Execution to_execution(EventSpan events, const proto::RunResult& result) {
  engine::Execution execution;
  execution.steps.reserve(events.size());
  // Without step 0, the run left out its prefix (wire/result_events.hpp).
  if (!events.empty() && events.front()->step() > 0) execution.first_step = events.front()->step();
  for (const proto::Event* event : events) {
    if (event->step() == 0) {
      execution.initial = to_step(*event);
    } else {
      execution.steps.push_back(to_step(*event));
    }
  }
  execution.ending = to_ending(result.status());
  execution.detail = result.detail();
  execution.final_state.assign(result.final_state().begin(), result.final_state().end());
  return execution;
}

proto::RunRequest to_request(const engine::WorkItem& item, engine::Heuristic heuristic, std::uint64_t step_limit,
                             const std::vector<std::string>& ranking) {
  proto::RunRequest request;
  request.set_protocol_version(wire::kProtocolVersion);
  for (const auto& id : item.prefix) request.add_prefix(id);
  for (const auto& id : item.sleep) request.add_sleep(id);
  request.set_heuristic(to_hook_heuristic(heuristic));
  request.set_step_limit(step_limit);
  for (const auto& actor : ranking) request.add_ranking(actor);
  return request;
}

}  // namespace exocheck::coordinator
