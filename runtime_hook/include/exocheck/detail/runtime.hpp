#pragma once
// The seam between the actor API and a scheduler. Two implementations: the thread-pool runtime
// (normal mode) and the controlled runtime (one macro-step at a time, recorded).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exocheck/detail/envelope.hpp"

namespace exocheck {
class Actor;
class Monitor;
}  // namespace exocheck

namespace exocheck::detail {

class Runtime {
 public:
  virtual ~Runtime() = default;

  /// Creates the record of a new actor spawned by `parent` (nullptr: by main) and names it.
  virtual ActorCell* create_cell(ActorCell* parent) = 0;
  /// The actor's constructor completed: from now on it exists (its creation time).
  virtual void adopt(ActorCell* cell, std::unique_ptr<Actor> actor) = 0;
  /// Names and sends one message. `envelope.sender`, receiver, type and payload are set.
  virtual void send(std::unique_ptr<Envelope> envelope) = 0;
  /// The actor destroys itself at the end of its current step.
  virtual void destroy(ActorCell* cell) = 0;
  /// Arms a timer: `firing` (envelope.timer, delay and series set; sender and receiver the actor)
  /// is delivered after its delay, or when the schedule chooses.
  virtual void arm(std::unique_ptr<Envelope> firing) = 0;
  /// Cancels the timer `series` of `cell`: a firing of it not delivered yet never is.
  virtual void cancel(ActorCell* cell, const std::string& series) = 0;
  /// The call `call` of `cell` timed out: its reply, pending now or sent later, is dropped.
  virtual void abandon_reply(ActorCell* cell, const std::string& call) = 0;
  /// A value from 0 to `range` - 1 for the step in progress (exocheck::choose).
  virtual std::uint32_t choose(std::uint32_t range) = 0;
  /// The step in progress notified `monitor` of an event (`summary`) on `lanes`
  /// (Monitor::lanes_of), before its handler runs (exocheck::notify). A free run records nothing.
  virtual void notified(const Monitor& /*monitor*/, const std::vector<std::string>& /*lanes*/,
                        const std::string& /*summary*/) {}
};

/// Who is constructing an actor right now on this thread (spawn sets it, Actor() reads it).
struct Construction {
  Runtime* runtime = nullptr;
  ActorCell* cell = nullptr;
};
Construction& current_construction();

/// The runtime of the process's System (exocheck::choose asks it); null before one exists.
Runtime*& active_runtime();

}  // namespace exocheck::detail
