#pragma once
// How a CAF message appears in a trace: a type name per kind of message ("deposit" for a message
// whose first element is that atom, the portable type names otherwise, "reply:..." for responses)
// and a summary (CAF's own to_string of the content).

#include <deque>
#include <string>
#include <unordered_map>

#include <caf/actor_clock.hpp>
#include <caf/blocking_actor.hpp>
#include <caf/mailbox_element.hpp>
#include <caf/scheduled_actor.hpp>

#include "exocheck/detail/envelope.hpp"

namespace exocheck::caf_adapter {

/// A CAF message in flight, held by the adapter until the schedule delivers it.
struct CafDelivery {
  caf::abstract_actor* receiver;
  caf::scheduled_actor* scheduled;           ///< the receiver, when it is event-based
  caf::blocking_actor* blocking;             ///< the receiver, when it is a blocking actor
  mutable caf::mailbox_element_ptr element;  ///< moved into the receiver's mailbox at delivery
  std::uint64_t channel;                     ///< the (sender, receiver) pair: CAF keeps its order
  std::uint64_t position;                    ///< 1 for the pair's first message, 2 for the next...
  caf::actor_clock::time_point sent_at;      ///< its sender's time (CafBridge::time_of)
};

/// An entry of CAF's clock (a delayed message; a receive, request or stream timeout), held by
/// the adapter as a timer of the controlled runtime: the schedule decides when it fires.
struct CafTimer {
  const void* event;    ///< the clock's entry (simple_actor_clock::delayed_event)
  std::string summary;  ///< what it delivers, for traces
};

/// The start of an actor spawned with blocking_api: its thread begins, as a step of its own.
struct CafStart {
  caf::blocking_actor* actor;
  caf::actor_clock::time_point sent_at;  ///< its spawner's time
};

/// A blocking receive's timeout (receive(..., after(d)), receive_for): fires while the actor still
/// waits in the receive numbered `wait`, which then returns without a message.
struct CafReceiveTimeout {
  caf::blocking_actor* actor;
  std::uint64_t wait;
};

/// caf_main's await_all_actors_done() returns: enabled once every actor of the run has ended.
struct CafAllDone {};

class CafMessageTypes {
 public:
  /// The type of `element`'s message, made once per name.
  const detail::MessageType& type_of(const caf::mailbox_element& element, caf::actor_system& system);
  /// The type of a timer of CAF's clock named `name` ("timeout:receive", a delayed message's name).
  const detail::MessageType& timer_type(const std::string& name);
  /// The type of the adapter's own events (CafStart, CafReceiveTimeout), named `name`.
  const detail::MessageType& adapter_type(const std::string& name, const std::type_info& payload);
  /// The name type_of() gives `element`'s message.
  static std::string name_of(const caf::mailbox_element& element, caf::actor_system& system);

 private:
  const detail::MessageType& made(std::unordered_map<std::string, detail::MessageType>& types, std::string name,
                                  const std::type_info& payload, std::string (*summarize)(const void*),
                                  signed char lossy);

  std::unordered_map<std::string, detail::MessageType> types_;
  std::unordered_map<std::string, detail::MessageType> timer_types_;
  std::unordered_map<std::string, detail::MessageType> adapter_types_;
  std::deque<std::string> names_;  ///< stable addresses for MessageType::name
};

}  // namespace exocheck::caf_adapter
