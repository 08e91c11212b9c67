#pragma once
// Actor programs described as data, for testing the engine without processes: thousands of
// programs explore in seconds. The semantics follow the hook's controlled mode exactly (ids,
// enabled sets, clocks, guards, calls, destroy, dead letters, heuristics, sleep sets).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace exocheck::engine::testing {

/// Where an action's message goes, or which actor a message carries.
enum class Target {
  kNone,  ///< (for carried refs) no actor
  kSelf,
  kSender,   ///< the sender of the message being handled
  kSlot,     ///< the actor stored in slot `slot` of the actor's state
  kCarried,  ///< the actor carried by the message being handled
};

struct Action {
  enum class Op {
    kSpawn,    ///< spawn an actor of type `type` into slot `slot`
    kSend,     ///< send message `type` to `to` (carrying `carry`), with value = acc + `value`
    kCall,     ///< like kSend, but wait for the reply; the reply runs continuation `then`
    kReply,    ///< reply to the call being handled (if it is one), with value = acc
    kDestroy,  ///< end this actor after the step
    kCheck,    ///< assertion: fails when acc % 3 == `value`
    kAbort,    ///< assert(): fails when acc % 3 == `value`, and the process ends with this step
    kStore,    ///< store the carried actor into slot `slot`
    kAfter,    ///< arm a one-shot timer: message `type` (value acc + `value`) to self; its name into timer slot `slot`
    kEvery,    ///< arm a periodic timer, likewise
    kCancel,   ///< cancel the timer in timer slot `slot`
    kChoose,   ///< exocheck::choose(`value`): acc changes with the value chosen
    kMonitor,  ///< Actor::monitor(`to`): a Down (message type kDownType) comes when it ends
    /// exocheck::notify: specification monitor `slot` (0 or 1) takes in acc + `value`; its check
    /// fails the step when its state % 7 == `value`
    kNotify,
  } op;
  int type = 0;
  Target to = Target::kSlot;
  int slot = 0;
  Target carry = Target::kNone;
  int carry_slot = 0;
  int value = 0;
  int then = 0;
  int timeout = -1;        ///< kCall: the continuation that runs when the call times out (-1: the call has no timeout)
  int delay = 1;           ///< kAfter, kEvery, and kCall with a timeout: the timer's delay (virtual time units)
  int when_count = -1;     ///< only when the actor's handled-message count equals this (-1: always)
  bool quiescent = false;  ///< kAfter: its firing is sent quiescent (delivered only when nothing else can be)
};

using Handler = std::vector<Action>;

/// A message type is accepted only once the actor handled at least `min_count` messages and,
/// when `parity` is 0 or 1, only while that count has this parity: a guard that closes again,
/// as a lock's does while it is held.
struct Guard {
  int type = 0;
  int min_count = 0;
  int parity = -1;
};

/// What a Down delivers to a monitor: its handler is the one for this type.
constexpr int kDownType = -3;

struct ActorType {
  std::string name;
  Handler constructor;
  std::vector<std::pair<int, Handler>> handlers;  ///< message type -> handler
  std::vector<Handler> continuations;             ///< call continuations, by index
  std::vector<Guard> guards;
  /// Actor::restart_as: a crashed actor of this type comes back, its acc and count from scratch,
  /// and runs `restart` (its new constructor; it keeps its slots, as restart_as's arguments).
  bool restarts = false;
  Handler restart{};
};

/// main spawns `roots` (actor types, ids "0", "1", ...) then sends `initial` messages.
struct InitialMessage {
  int to = 0;  ///< index into the root actors
  int type = 0;
  int value = 0;
  int carry_root = -1;  ///< index of a root actor the message carries, or -1
};

/// The faults a run may suffer, per actor (trace.proto's FaultBudget; none by default).
struct FaultBudget {
  std::uint32_t crashes = 0;
  std::uint32_t losses = 0;
  std::uint32_t duplicates = 0;
  std::uint32_t partitions = 0;
  /// Actors (by index in creation order) on one side of the cut; empty: each link on its own.
  std::vector<int> partition_side{};
};

struct Program {
  std::vector<ActorType> types;
  std::vector<int> roots;
  std::vector<InitialMessage> initial;
  std::vector<std::string> message_names;  ///< message type -> name
  /// Guards written with views (actor.hpp): the run reports, as the hook does, which of a
  /// receiver's earlier steps' guards reject each message sent to it.
  bool guard_views = true;
  FaultBudget faults{};
};

}  // namespace exocheck::engine::testing
