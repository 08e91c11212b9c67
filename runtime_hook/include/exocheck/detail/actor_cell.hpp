#pragma once
// The runtime's record of one actor: identity, lifecycle, call state and counters that name
// what it creates and sends. Both runtimes use it; each adds its own scheduling state.

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exocheck/detail/envelope.hpp"

namespace exocheck {
class Actor;
}

namespace exocheck::detail {

class ActorCell;

/// An actor that asked to be told of another's end, as it was then (ActorCell::incarnation).
struct Watcher {
  ActorCell* cell = nullptr;
  std::uint32_t incarnation = 0;
};

/// The views of an actor's guards (those declared with one; null for the others), by guard.
using GuardViews = std::vector<std::shared_ptr<const void>>;

/// The views of an actor's guards before one of its steps.
struct GuardViewsAt {
  std::uint32_t step = 0;
  GuardViews views;
};

class ActorCell {
 public:
  ActorCell(std::string id, std::uint32_t index, ActorCell* parent) : id(std::move(id)), index(index), parent(parent) {}

  const std::string id;       ///< spawn-tree path: "0", "0.1", ...
  const std::uint32_t index;  ///< dense number in order of spawn calls
  ActorCell* const parent;    ///< nullptr for actors spawned by main

  std::unique_ptr<Actor> actor;    ///< set when construction completes
  std::uint64_t creation_seq = 0;  ///< global order of construction completion (from 1)
  std::uint32_t children = 0;      ///< actors spawned so far (names the next one)
  std::uint64_t sent = 0;          ///< messages sent so far (names the next one)
  bool destroyed = false;
  bool destroy_requested = false;  ///< destroy() was called in the current step

  /// Who is told when this actor ends (Actor::monitor), each once, in the order they asked.
  std::vector<Watcher> monitors;
  /// Crashes it came back from (Actor::restart_as): a Down an earlier incarnation asked for is
  /// dropped as it is delivered.
  std::uint32_t incarnation = 0;
  /// The program's word on crashing (Actor::crashable): 1 may, 0 never, -1 said nothing.
  signed char crash_mark = -1;
  /// Makes the actor again after a crash (Actor::restart_as); empty: it stays down.
  std::function<std::unique_ptr<Actor>()> factory;

  /// A synchronous call is outstanding: only its reply (or its timeout) is enabled until it arrives.
  std::string awaiting;
  std::function<void(const Envelope&)> continuation;
  /// The outstanding call's timeout, if it has one: its timer's name, and what runs when it fires
  /// before the reply comes (the reply is then dropped).
  std::string call_timeout;
  std::function<void()> on_timeout;
  /// Calls that timed out and whose reply has not been dropped yet (it is, when it is sent).
  std::vector<std::string> abandoned_calls;
  /// Requests whose replies the actor waits for while it goes on handling other messages (set by
  /// adapters: CAF's request(...).then). One still open when nothing is left to deliver is a
  /// deadlock, as `awaiting` is.
  std::vector<std::string> unanswered_requests;

  // Normal mode only: the mailbox and whether a pool task currently owns the actor.
  std::mutex mutex;
  std::deque<std::unique_ptr<Envelope>> mailbox;
  bool scheduled = false;

  // Controlled mode only: the clock after the actor's latest step (or its creator's step), and
  // its guards' views before its latest steps, oldest first (guard_history.hpp; a vector, as a
  // deque allocates when made, and most actors never keep a view).
  std::shared_ptr<const VectorClock> clock;
  std::vector<GuardViewsAt> guard_history;
  /// What the trace calls the actor (its class, or an adapter's name for it), interned by the
  /// runtime (one string per type, not per actor): --crash-types.
  const std::string* type = nullptr;
  /// Faults it suffered in this run, against the budget's per-actor counts.
  std::uint64_t recorded_time = 0;  ///< a recorded free run: its latest step's Lamport time
  std::uint32_t crashes = 0;
  std::uint32_t losses = 0;
  std::uint32_t duplicates = 0;
  std::uint32_t partitions = 0;  ///< its links cut (--partition)
  /// Its links cut now: a receiver's index + 1 (no --partition-side), or 0 (the other side).
  std::vector<std::uint32_t> cut_links;
};

/// True when `envelope` may be delivered to its receiver now: the receiver lives, is not
/// waiting for another reply, and its guard for this type (if any) accepts the message.
bool is_enabled(const Envelope& envelope);

/// The views of `actor`'s guards in its current state; empty when none of its guards has a view.
GuardViews guard_views(const Actor& actor);

/// Whether the receiver's guard for `envelope`'s type, tested on `views` (taken before one of the
/// receiver's steps), rejects it. False when that guard has no view, or there is no guard.
bool rejected_by(const GuardViews& views, const Envelope& envelope);

/// Runs the receiver's handler (or call continuation, or call timeout) for `envelope`; a periodic
/// timer's firing arms its next one first. Throws what the handler throws.
void dispatch(const Envelope& envelope);

/// The Down message that tells `watcher` that `ended` ended, `reason` saying how; sent by `ended`
/// (its next message id), so that it is named alike in every execution.
std::unique_ptr<Envelope> down_message(ActorCell& ended, const Watcher& watcher, const char* reason);

/// The next firing of the periodic timer whose firing `fired` is, named `id`.
std::unique_ptr<Envelope> next_firing(const Envelope& fired, std::string id);

}  // namespace exocheck::detail
