// How a run ends when it cannot go on: the prefix names a message that is not enabled (a
// divergence), or nothing is enabled (completed, or a deadlock naming who waits for what); its
// first failure and final state; and the step a process's end cut short (its last words).

#include <unistd.h>

#include <algorithm>
#include <csignal>

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"
#include "exocheck/wire/utf8.hpp"

namespace exocheck::detail {

proto::RunResult ControlledRuntime::divergence(const proto::RunRequest& request, std::uint32_t step) const {
  const std::size_t index = step - 1;
  const std::string& expected = request.prefix(static_cast<int>(index));
  proto::RunResult result;
  result.set_status(proto::RUN_DIVERGENCE);
  result.set_divergence_index(static_cast<std::uint32_t>(index));
  result.set_divergence_expected(expected);
  std::string enabled_list;
  for (std::size_t i : enabled_) {
    result.add_divergence_enabled(pending_[i]->id);
    enabled_list += (enabled_list.empty() ? "" : ", ") + pending_[i]->id;
  }
  auto pending = std::find_if(pending_.begin(), pending_.end(), [&](const auto& e) { return e->id == expected; });
  const std::string why = pending != pending_.end()
                              ? "is pending at actor " + (*pending)->receiver->id + " but not enabled"
                              : "is not pending (never sent in this run, or already delivered)";
  result.set_detail("replay diverged at step " + std::to_string(step) + ": prefix[" + std::to_string(index) +
                    "] names message " + expected + ", which " + why + "; enabled: " + enabled_list);
  return result;
}

proto::RunResult ControlledRuntime::quiescent_result(std::uint32_t steps) const {
  proto::RunResult result;
  result.set_steps(steps);
  for (const auto& cell : cells_) {
    if (cell->destroyed) continue;
    if (!cell->awaiting.empty()) {
      auto* blocked = result.add_blocked();
      blocked->set_actor(cell->id);
      blocked->set_waiting_for(cell->awaiting);
    }
    for (const auto& request : cell->unanswered_requests) {
      auto* blocked = result.add_blocked();
      blocked->set_actor(cell->id);
      blocked->set_waiting_for(request);
    }
  }
  std::string awaited_list;
  if (awaited_at_end_) {
    for (const ActorCell* cell : awaited_at_end_()) {
      auto* blocked = result.add_blocked();
      blocked->set_actor(cell->id);
      // No reply it waits for: main waits for its end (RunResult.blocked).
      awaited_list += (awaited_list.empty() ? " " : ", ") + cell->id +
                      (cell->type != nullptr ? " (" + *cell->type + ")" : std::string());
    }
  }
  std::string pending_list;
  for (const auto& envelope : pending_) {
    auto* pending = result.add_pending();
    pending->set_id(envelope->id);
    pending->set_receiver(envelope->receiver->id);
    pending->set_type(*envelope->type->name);
    pending_list += (pending_list.empty() ? "" : ", ") + envelope->id + " (" + *envelope->type->name + " to " +
                    envelope->receiver->id + ")";
  }
  if (result.blocked_size() == 0 && result.pending_size() == 0) {
    result.set_status(proto::RUN_COMPLETED);
    result.set_detail("completed after " + std::to_string(steps) + " steps");
    return result;
  }
  std::string detail = "deadlock after step " + std::to_string(steps) + ":";
  for (const auto& blocked : result.blocked()) {
    if (blocked.waiting_for().empty()) continue;  // main awaits its end: awaited_list
    detail += " actor " + blocked.actor() + " waits for the reply to " + blocked.waiting_for() + ";";
  }
  if (!awaited_list.empty())
    detail += " main waits for actors that never end, nothing left to deliver to them:" + awaited_list + ";";
  if (!pending_list.empty()) detail += " pending, none enabled: " + pending_list;
  result.set_status(proto::RUN_DEADLOCK);
  result.set_detail(detail);
  return result;
}

void ControlledRuntime::record_step_cut_short(int signal) noexcept {
  // SIGTERM is the runner ending a run that hung, which a fork server's runs end with SIGKILL,
  // without last words: a hang's trace is the same however the run was performed.
  if (!step_in_progress_ || signal == SIGTERM || ::getpid() != run_pid_) return;
  step_in_progress_ = false;
  keep_steps_before(event_->step());
  if (signal != 0) event_->set_outcome(proto::STEP_CRASH);
  channel_.write_from_signal(*event_frame_);
}

void ControlledRuntime::add_final_state(proto::RunResult& result) const {
  std::vector<std::string> lines;
  for (const auto& cell : cells_) {
    if (!cell->actor) continue;
    std::string summary = cell->actor->final_state();
    if (!summary.empty()) lines.push_back(cell->id + ": " + wire::valid_utf8(std::move(summary)));
  }
  std::sort(lines.begin(), lines.end());
  for (auto& line : lines) result.add_final_state(std::move(line));
}

proto::RunResult ControlledRuntime::with_first_failure(proto::RunResult result) const {
  // A sleep-blocked run is redundant: an explored path of the same class runs the failing step
  // too and reports it. Reported here, its cut-short trace would count as a class of its own.
  if (first_failure_.status() != proto::RUN_UNKNOWN && result.status() != proto::RUN_SLEEP_BLOCKED) {
    result.set_status(first_failure_.status());
    result.set_detail(first_failure_.detail());
  }
  return result;
}

void ControlledRuntime::note_failure(proto::StepOutcome outcome, std::uint32_t step) {
  if (outcome == proto::STEP_OK || first_failure_.status() != proto::RUN_UNKNOWN) return;
  const bool assertion = outcome == proto::STEP_ASSERTION_FAILED;
  first_failure_.set_status(assertion ? proto::RUN_ASSERTION_FAILED : proto::RUN_EXCEPTION);
  first_failure_.set_detail((assertion ? "assertion failed" : "uncaught exception") + std::string(" in actor ") +
                            event_->actor() + " handling " + event_->message() + " (" + event_->type() + ") at step " +
                            std::to_string(step) + ": " + event_->detail());
}

}  // namespace exocheck::detail
