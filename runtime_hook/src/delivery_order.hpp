#pragma once
// Which of the messages their receivers accept the delivery order lets go now (trace.proto's
// DeliveryOrder): of two accepted messages to one actor, the one sent first on the same channel
// (FIFO) or causally first (causal) goes first; a message the receiver refuses holds nothing back,
// as Erlang's selective receive. The controlled runtime and the engine tests' interpreter both
// enable messages through this, so that they agree.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vector_clock.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

/// What the order needs to know of a pending message.
struct SendFacts {
  std::int64_t receiver = 0;           ///< the receiving actor's index
  std::int64_t sender = -1;            ///< the sending actor's index; -1: main (the environment)
  std::uint64_t send_seq = 0;          ///< the run's global send order
  const VectorClock* clock = nullptr;  ///< the sending step's clock; nullptr: sent in step 0 (main's code)
  bool timer = false;                  ///< a timer's firing, "sent" when it was armed
};

/// Whether `earlier`, sent before `later` to the same receiver, goes first under `order`.
inline bool goes_first(proto::DeliveryOrder order, const SendFacts& earlier, const SendFacts& later) {
  // A firing comes a while after its arming: what was sent after the arming, on its channel or
  // causally, may come first (a timeout races the reply it waits for, dependency.md "Delivery
  // orders"). What was sent before the arming still goes before the firing.
  if (earlier.timer) return false;
  switch (order) {
    case proto::DELIVERY_FIFO:
      return earlier.sender == later.sender;
    case proto::DELIVERY_CAUSAL:
      // Step 0 is one step: its sends are ordered as main made them, and one of them precedes a
      // later step's send when a step-0 message sent no earlier was delivered in its causal past.
      if (earlier.clock == nullptr)
        return later.clock == nullptr || later.clock->at(kStepZeroSends) >= earlier.send_seq;
      if (later.clock == nullptr) return false;
      return earlier.clock == later.clock || earlier.clock->precedes_or_equals(*later.clock);
    default:
      return false;
  }
}

/// Removes from `accepted` (indices of pending messages their receivers accept, in send order) those
/// that `order` holds behind another of them. `facts_of(index)` says what the order needs.
template <typename FactsOf>
void hold_back_by_order(proto::DeliveryOrder order, std::vector<std::size_t>& accepted, FactsOf facts_of) {
  if (order == proto::DELIVERY_UNORDERED || accepted.size() < 2) return;
  std::vector<std::size_t> free;
  free.reserve(accepted.size());
  for (std::size_t k = 0; k < accepted.size(); ++k) {
    const SendFacts later = facts_of(accepted[k]);
    bool held = false;
    for (std::size_t j = 0; j < k && !held; ++j) {
      const SendFacts earlier = facts_of(accepted[j]);
      held = earlier.receiver == later.receiver && goes_first(order, earlier, later);
    }
    if (!held) free.push_back(accepted[k]);
  }
  accepted = std::move(free);
}

}  // namespace exocheck::detail
