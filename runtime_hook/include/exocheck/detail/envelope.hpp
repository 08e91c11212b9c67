#pragma once
// A message in flight, type-erased, with the identity it keeps across re-executions.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <typeinfo>

namespace exocheck::detail {

class ActorCell;
class VectorClock;

/// Owns a message payload of any type.
using Payload = std::unique_ptr<void, void (*)(void*)>;

template <typename M>
Payload make_payload(M&& message) {
  using T = std::decay_t<M>;
  return Payload(new T(std::forward<M>(message)), [](void* p) { delete static_cast<T*>(p); });
}

/// A number of a message type's own, for a recorded free run's compact steps (exocheck/wire/free_run_log.hpp).
std::uint32_t next_message_type_index();

/// How to name and print one message type; one static instance per type.
struct MessageType {
  const std::type_info* type;
  const std::string* name;
  std::string (*summarize)(const void* payload);
  /// A copy of a payload, for a message the network delivers twice (--duplicate); null: the type
  /// cannot be copied here (an adapter's), and is never duplicated.
  Payload (*copy)(const void* payload) = nullptr;
  /// The type's own word on faults in flight (a member `static constexpr bool lossy`): 1 it may be
  /// lost or duplicated whatever --lossy-types says, 0 never, -1 said nothing.
  signed char lossy = -1;
  std::uint32_t index = next_message_type_index();
};

template <typename M>
const MessageType& message_type_of();

/// What a timer's firing is (trace.proto's TimerKind): an actor's message to itself that the
/// runtime delivers after a while (normal mode) or when the schedule chooses (controlled mode).
enum class TimerKind : std::uint8_t {
  kNone,         ///< an ordinary message
  kOnce,         ///< Actor::after
  kPeriodic,     ///< Actor::every: armed again each time it fires
  kCallTimeout,  ///< a call's timeout: it answers the call when the reply has not come
};

struct Envelope {
  std::string id;               ///< "<sender>#<n>" or "env#<n>"
  std::uint64_t ordinal = 0;    ///< its n (0: an adapter named it otherwise)
  ActorCell* sender = nullptr;  ///< nullptr: sent by main (the environment)
  ActorCell* receiver = nullptr;
  const MessageType* type = nullptr;
  Payload payload{nullptr, [](void*) {}};
  bool is_call = false;                      ///< the sender waits for a reply to this message
  std::string answers;                       ///< for a reply: the id of the call it answers
  std::uint64_t send_seq = 0;                ///< global send order, for FIFO/LIFO and "send order"
  std::shared_ptr<const VectorClock> clock;  ///< controlled mode: clock of the sending step
  std::uint64_t recorded_time = 0;           ///< a recorded free run: the sending step's Lamport time
  /// Delivered only when no other message can be, on every lane (trace.proto's
  /// SentMessage.quiescent): an adapter's event of the whole run.
  bool quiescent = false;
  /// Actor::monitor()'s request: the runtime handles it at the receiver, alive or ended.
  bool monitor_request = false;
  /// A monitor request's and its Down's: the watcher's incarnation when it asked (ActorCell).
  std::uint32_t incarnation = 0;
  // Timers only.
  TimerKind timer = TimerKind::kNone;
  std::chrono::nanoseconds delay{0};  ///< from arming to firing (a periodic timer's period)
  std::string series;                 ///< the timer's name, its first firing's id: what cancel() names
  std::function<Payload()> again;     ///< a periodic timer's payload for its next firing
  std::uint64_t due_ns = 0;           ///< controlled mode: the virtual time of its firing
};

}  // namespace exocheck::detail
