#pragma once
// Runs an unmodified CAF program as a controlled subject. CAF's own deterministic scheduler
// (scheduler.policy "testing") runs the actors on main's thread; the adapter keeps every message
// sent to an event-based actor out of its mailbox until the schedule delivers it, which is one
// macro-step: the message goes into the mailbox and the actor runs until it has nothing left to
// do. Each CAF actor is an actor of the controlled runtime (a proxy), so that names, vector
// clocks, replay, heuristics, sleep sets and bug reports are the native subjects' own.
//
// CAF keeps the order of the messages one actor sends another: a message is enabled only once
// those sent before it on its channel are delivered. An actor that awaits a response
// (request(...).await) takes nothing else until it arrives; a request never answered when
// nothing is left to deliver is a deadlock.
//
// Blocking actors: a scoped_actor (caf_main's own, a function view's) is an actor of the run from
// its making. The run begins where caf_main first waits in its receive (or at the end of
// caf_main); a delivery to the actor caf_main waits in puts the message into its mailbox and
// returns into caf_main, whose code up to its next wait is the rest of that step
// (caf_blocking.cpp). caf_main waiting for a message that never comes is a deadlock.
//
// Time: CAF's test clock never advances by itself. Every entry of it (delayed_send, an after(...)
// receive timeout, a request's timeout, a stream's tick) becomes a timer of the controlled
// runtime, armed by the step that made it and withdrawn when CAF cancels it; the schedule decides
// when it fires (--timers), and its firing moves the clock to its due time (caf_timers.cpp).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/blocking_actor.hpp>
#include <caf/scheduled_actor.hpp>
#include <caf/scheduler/test_coordinator.hpp>

#include "caf_message_types.hpp"
#include "controlled_mode.hpp"
#include "exocheck/actor.hpp"
#include "exocheck/detail/runtime.hpp"

namespace exocheck::detail {
class ControlledRuntime;
}

namespace exocheck::caf_adapter {

class CafBridge {
 public:
  /// The bridge of this process; null when no agent controls it (started by hand).
  static CafBridge* instance() { return instance_; }

  /// Called before CAF's actor_system constructor: when an agent started this process, connects
  /// to it and has the system use CAF's deterministic scheduler.
  static void system_constructing(caf::actor_system_config& config);
  /// Called after it: the system whose scheduler runs the actors.
  void system_constructed(caf::actor_system& system);

  /// An event-based actor is starting (scheduled_actor::launch): it becomes an actor of the run,
  /// spawned by the actor running now (or by main).
  void launching(caf::scheduled_actor& actor);
  /// A message for `receiver` (scheduled_actor::enqueue). True when the bridge took it; false for
  /// actors it does not control (CAF's hidden ones), which get it at once.
  bool sending(caf::abstract_actor& receiver, caf::mailbox_element_ptr& element);
  /// caf_main waits for its actors (actor_system::await_all_actors_done): the run begins here.
  /// Called by caf_main itself, a run that completes returns into caf_main, which may go on doing
  /// what involves no actor; the next such call, or the system's end (`at_system_end`: the
  /// system's destructor waits), reports the run and ends the process. Any other run ends it here.
  void run(bool at_system_end);
  /// An actor is being spawned with blocking_api (it would run on a thread of its own): refused.
  [[noreturn]] void blocking_spawn();
  /// assert() failed: the step in progress fails and the run ends. Returns outside a run.
  void assertion_failed(const std::string& detail);
  /// A blocking actor (a scoped_actor) was made: an actor of the run from now on.
  void blocking_created(caf::blocking_actor& actor);
  /// caf_main waits in `actor`'s receive: the run goes on until a message for it is delivered,
  /// and returns with it in the mailbox; when the run ends instead, the process ends.
  void blocking_wait(caf::blocking_actor& actor);
  /// The program does what the adapter does not model, named by `construct`: refused (exit 2 of
  /// exocheck, never a bug).
  [[noreturn]] void refuse(const std::string& construct);
  /// A handler threw and CAF's default exception handler is about to end its actor.
  void exception_escaped(const std::string& what) { exception_ = what; }

  // For the proxies: the guard and the handler of every CAF message, and of every timer.
  bool enabled(const CafDelivery& delivery) const;
  void deliver(const CafDelivery& delivery);
  bool enabled(const CafTimer& timer) const;
  void fire(const CafTimer& timer);

 private:
  struct Controlled {
    detail::ActorCell* cell;
    caf::strong_actor_ptr handle;  ///< keeps the actor's memory as long as the run
  };

  explicit CafBridge(std::unique_ptr<detail::ControlledMode> mode);
  void run_jobs();
  void terminated(detail::ActorCell* cell, const caf::error& reason);
  void note_waiting(caf::scheduled_actor& actor, detail::ActorCell& cell);
  /// caf_main's code since a delivery woke one of its blocking actors ends that actor's step.
  void end_main_step();
  detail::ControlledRuntime& controlled_runtime();
  /// The controlled runtime's actor for a CAF actor.
  std::unique_ptr<Actor> make_proxy();
  std::uint64_t channel_of(const detail::ActorCell* sender, const detail::ActorCell* receiver) const;
  detail::ActorCell* cell_of(const caf::abstract_actor* actor) const;
  /// Makes the runtime's timers what CAF's clock holds after a step of `arming` (null: main's).
  void mirror_clock(detail::ActorCell* arming);
  void arm_timer(const void* event, detail::ActorCell* arming);

  /// A clock entry held as a timer: the entry's identity beside its address (an address freed
  /// and reused in one step is a new entry), and the timer's receiver and name.
  struct MirroredTimer {
    caf::actor_clock::time_point due;
    int subtype;
    detail::ActorCell* cell;
    std::string series;
  };

  static CafBridge* instance_;

  std::unique_ptr<detail::ControlledMode> mode_;
  detail::Runtime& runtime_;
  caf::actor_system* system_ = nullptr;
  caf::scheduler::test_coordinator* scheduler_ = nullptr;
  CafMessageTypes types_;
  std::unordered_map<const caf::abstract_actor*, Controlled> controlled_;
  detail::ActorCell* running_ = nullptr;  ///< the actor whose code runs now; null: main's
  std::vector<std::pair<caf::scheduled_actor*, detail::ActorCell*>> ran_;  ///< in the step in progress
  std::uint64_t main_sent_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> sent_on_channel_;
  std::unordered_map<std::uint64_t, std::uint64_t> delivered_on_channel_;
  /// (requester's index, request number) -> the request's message id
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> requests_;
  std::optional<std::string> failure_;                     ///< an actor failed in the step in progress
  std::string exception_;                                  ///< what the last uncaught exception said
  std::unordered_map<const void*, MirroredTimer> timers_;  ///< by clock entry
  bool main_resumed_ = false;                              ///< caf_main goes on after a run that completed (run())
  const caf::abstract_actor* firing_to_ = nullptr;         ///< a timer's message goes straight in
  const caf::blocking_actor* waiting_in_ = nullptr;        ///< the blocking actor caf_main waits in
};

}  // namespace exocheck::caf_adapter
