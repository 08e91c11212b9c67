// Step 0's threads where actors start on threads of their own (a CAF program): what each had
// seen of step 0's sends (ControlledRuntime::start_actors_apart, vector_clock.hpp's start keys).

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"
#include "identity.hpp"

namespace exocheck::detail {

void ControlledRuntime::record_start_clock(const VectorClock& clock,
                                           google::protobuf::RepeatedPtrField<proto::ClockEntry>& into) const {
  for (const auto& [index, count] : clock.entries()) {
    if (index < kFirstStartKey) continue;
    auto* entry = into.Add();
    entry->set_actor(index == kStepZeroSends ? std::string(kEnvironment) : cells_[kStepZeroSends - 1 - index]->id);
    entry->set_count(count);
  }
}

void ControlledRuntime::start_actors_apart() {
  starts_apart_ = true;
}

VectorClock& ControlledRuntime::start_clock_of(const ActorCell* thread) {
  return thread == nullptr ? main_start_clock_ : start_clocks_[thread];
}

}  // namespace exocheck::detail
