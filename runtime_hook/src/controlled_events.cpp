// Controlled mode: what a run records of each step (its event) and how it goes into the channel,
// but for the steps the last run made alike, whose events are kept (kept_steps.hpp).

#include <algorithm>
#include <vector>

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"

namespace exocheck::detail {

void ControlledRuntime::record_clock(const VectorClock& clock) {
  auto& entries = clock_by_actor_id_;
  entries.clear();
  for (const auto& [index, count] : clock.entries()) {
    if (index < kFirstStartKey) entries.emplace_back(&cells_[index]->id, count);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return *a.first < *b.first; });
  for (const auto& [actor, count] : entries) {
    auto* entry = event_->add_clock();
    entry->set_actor(*actor);
    entry->set_count(count);
  }
  if (starts_apart_) record_start_clock(clock, *event_->mutable_start_clock());
}

void ControlledRuntime::write_event() {
  step_in_progress_ = false;
  const std::uint32_t step = event_->step();
  auto& kept = channel_.kept_steps();
  // A kept step's event is published as the step ends, as a written one would be: a run that
  // hangs or crashes in a step shows the steps before it only.
  if (step < kept_steps_) return channel_.keep_frames(kept.end_of(step));
  const auto before = channel_.committed_bytes();
  channel_.write(*event_frame_);
  if (channel_.committed_bytes() == before) return kept.truncate(step);  // not written: the buffer is full
  std::vector<std::uint32_t> values;
  for (const auto& choice : event_->choices()) values.push_back(choice.value());
  kept.record(step, delivery_hash(event_->message(), values), channel_.committed_bytes());
}

void ControlledRuntime::keep_steps_before(std::uint32_t step) noexcept {
  if (step >= kept_steps_) return;
  channel_.keep_frames(step == 0 ? 0 : channel_.kept_steps().end_of(step - 1));
  channel_.kept_steps().truncate(step);
  kept_steps_ = step;
}

}  // namespace exocheck::detail
