// Specification monitors in a controlled run: notifications recorded in the step's event, and
// liveness (a monitor hot where the run ends, or past the request's bound).

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"
#include "exocheck/wire/utf8.hpp"
#include "monitors.hpp"

namespace exocheck::detail {

void ControlledRuntime::notified(const Monitor& monitor, const std::vector<std::string>& lanes,
                                 const std::string& summary) {
  if (step_clock_) {
    // The step's clock is its own object, shared with what it sent and created in it so far: they
    // all come after the latest step on each of the notification's lanes. Made mutable
    // (make_shared<VectorClock>).
    auto& clock = const_cast<VectorClock&>(*step_clock_);
    for (const auto& lane : lanes) clock.merge(monitor_clocks_[lane]);
    for (const auto& lane : lanes) monitor_clocks_[lane] = clock;
    // The step's event took its clock before the handler ran: it comes after the monitors' latest
    // step too, or the explorer would take the two for unordered (a kept step's event has it).
    if (event_->step() >= kept_steps_) {
      event_->clear_clock();
      event_->clear_start_clock();
      record_clock(clock);
    }
  }
  auto* notification = event_->add_notifications();
  notification->set_monitor(wire::valid_utf8(monitor.name()));
  notification->set_event(wire::valid_utf8(summary));
  for (const auto& lane : lanes) notification->add_lanes(wire::valid_utf8(lane));
}

std::vector<std::string> ControlledRuntime::lanes_notified() const {
  std::vector<std::string> lanes;
  for (const auto& notification : event_->notifications()) {
    if (notification.lanes().empty()) lanes.push_back(notification.monitor());
    lanes.insert(lanes.end(), notification.lanes().begin(), notification.lanes().end());
  }
  return lanes;
}

proto::RunResult ControlledRuntime::with_hot_monitors(proto::RunResult result) const {
  const proto::RunStatus status = result.status();
  const bool bounded = request_ && request_->liveness_bound() != 0;
  const bool ended =
      status == proto::RUN_COMPLETED || status == proto::RUN_DEADLOCK || (status == proto::RUN_STEP_LIMIT && !bounded);
  const Monitor* hot = ended ? first_hot_monitor() : nullptr;
  if (hot == nullptr) return result;
  // The run's own detail says how it ended ("completed after 3 steps", "deadlock after step 5: ...").
  result.set_detail("monitor " + hot->name() + " is hot in state " + hot->hot_state() + " where the run ended, " +
                    result.detail());
  result.set_status(proto::RUN_LIVENESS);
  return result;
}

std::optional<proto::RunResult> ControlledRuntime::past_liveness_bound(std::uint32_t step) {
  if (step <= 1 || !liveness_ || request_->liveness_bound() == 0) return std::nullopt;
  std::vector<const std::string*> enabled;
  enabled.reserve(enabled_.size());
  for (std::size_t i : enabled_) enabled.push_back(&pending_[i]->id);
  const Monitor* hot = liveness_->after_step(step - 1, event_->message(), enabled, registered_monitors());
  if (hot == nullptr) return std::nullopt;
  proto::RunResult result;
  result.set_status(proto::RUN_LIVENESS);
  result.set_steps(step - 1);
  result.set_detail("monitor " + hot->name() + " was hot in state " + hot->hot_state() + " for " +
                    std::to_string(liveness_->temperature(*hot)) + " fair rounds, more than --liveness-bound " +
                    std::to_string(request_->liveness_bound()) + ", at step " + std::to_string(step - 1) +
                    ": a potential liveness bug");
  return result;
}

}  // namespace exocheck::detail
