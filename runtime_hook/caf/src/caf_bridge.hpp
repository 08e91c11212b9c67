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
// (caf_blocking.cpp). caf_main waiting for a message that never comes is a deadlock. An actor
// spawned with blocking_api runs on a thread of its own, as in CAF, but only while the schedule
// lets it: its start is a step of its own, and a delivery to it hands it the run (ThreadBaton)
// until it waits again or ends (caf_threads.cpp). A receive's timeout is a timer of the actor,
// withdrawn when a message wakes it first.
//
// Time: CAF's test clock never advances by itself. Every entry of it (delayed_send, an after(...)
// receive timeout, a request's timeout, a stream's tick) becomes a timer of the controlled
// runtime, armed by the step that made it (named apart from messages: "0.1#t2", next_timer_id())
// and withdrawn when CAF cancels it; the schedule decides
// when it fires (--timers). The clock an actor reads is its own causal time: the latest due time
// of its timers fired and of the times at which the messages it received were sent. A global
// clock would let a step depend on independent firings elsewhere (a stream's credit and batches
// read it), which no reduction can see (caf_timers.cpp).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
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
#include "thread_baton.hpp"

namespace exocheck::detail {
class ControlledRuntime;
}

namespace exocheck::caf_adapter {

/// What a CAF actor is, for the trace: the name it gives itself (a state's `name`; `base_name` is
/// its class's own), else the state's type of a stateful actor, else its class
/// (caf::event_based_actor for a function-based actor without state: CAF keeps no trace of the
/// function's name).
std::string caf_actor_type(const caf::local_actor& actor, std::string_view base_name);

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
  /// caf_main waits for its actors (actor_system::await_all_actors_done); the run begins at the
  /// first wait. At the system's end (`at_system_end`: its destructor waits) the run goes on to
  /// its end, which ends the process. Called by caf_main itself, it returns when every actor of
  /// the run has ended, into caf_main, whose code up to its next wait is a step of its own actor
  /// (named caf_main, on every lane: its delivery waits for all the others); the process ends if
  /// the run ends first (a deadlock, a failure).
  void run(bool at_system_end);
  /// An actor spawned with blocking_api is launched (blocking_actor::launch): its thread starts
  /// in a step of its own, with launch's other arguments.
  void blocking_launch(caf::blocking_actor& actor, caf::execution_unit* unit, bool lazy);
  /// A thread ends (actor_system::dec_detached_threads): when it is a blocking actor's, that
  /// actor's last step is over.
  void thread_ending();
  /// assert() failed: the step in progress fails and the run ends. Returns outside a run.
  void assertion_failed(const std::string& detail);
  /// A specification monitor of the program was notified in the step in progress (caf_monitors.cpp).
  void monitor_notified(const Monitor& monitor, const std::string& event);
  /// A blocking actor (a scoped_actor) was made: an actor of the run from now on.
  void blocking_created(caf::blocking_actor& actor);
  /// `actor` waits in a receive (caf_main's scoped_actor, or an actor on its own thread): the run
  /// goes on until a message for it is delivered, and returns true with it in the mailbox; false
  /// when `timeout` (after(...)) fired first. When the run ends instead, the process ends.
  bool blocking_wait(caf::blocking_actor& actor, std::optional<caf::blocking_actor::timeout_type> timeout);
  /// `actor`'s receive takes a message (`took`), or gives it back as no handler matched (not
  /// `took`): what names its next timeout.
  void blocking_taking(const caf::abstract_actor& actor, bool took);
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
  void start(const CafStart& start);
  bool enabled(const CafAllDone& done) const;
  void deliver(const CafAllDone& done);
  /// Whether CAF would have ended `actor` (exit_reason::unreachable): nothing refers to it but the
  /// adapter's handle, nothing is on its way to it, and no timer of its is pending.
  bool unreachable(const detail::ActorCell* cell, const caf::abstract_actor& actor) const;
  void fire(const CafReceiveTimeout& timeout);

 private:
  struct Controlled {
    detail::ActorCell* cell;
    caf::strong_actor_ptr handle;     ///< keeps the actor's memory as long as the run
    caf::scheduled_actor* scheduled;  ///< what it is, known once (a dynamic_cast per guard test was
    caf::blocking_actor* blocking;    ///< a tenth of a CAF run's time)
  };

  /// A blocking actor: a scoped_actor of caf_main's, or (`threaded`) one spawned with
  /// blocking_api, whose code runs on a thread of its own while it holds the baton.
  struct BlockingActor {
    enum class Phase { unstarted, running, waiting, ended };
    detail::ActorCell* cell = nullptr;
    bool threaded = false;
    Phase phase = Phase::running;
    caf::execution_unit* unit = nullptr;  ///< launch's arguments, for its start step
    bool lazy = false;
    std::uint64_t waits = 0;     ///< receives it waited in: names the one a timeout is for
    std::string timeout_series;  ///< the armed timeout of the receive it waits in
    bool timed_out = false;
    /// Messages its receives took and timeouts that fired: its next timeout is "<actor>#w<taken+1>"
    /// (see arm_receive_timeout()), unless that name was given already.
    std::uint64_t taken = 0;
    std::uint64_t named = 0;  ///< the highest n of the "<actor>#w<n>" names given
  };

  explicit CafBridge(std::unique_ptr<detail::ControlledMode> mode);
  /// A message for a blocking actor went into its mailbox: it runs when it waits for one.
  void wake(caf::blocking_actor& actor);
  /// Runs a blocking actor's thread until it waits again or ends (`launch`: starts it), then
  /// what it spawned or woke.
  void run_thread(caf::blocking_actor& actor, BlockingActor& state, bool launch);
  bool threaded_wait(caf::blocking_actor& actor, BlockingActor& state);
  void arm_receive_timeout(caf::blocking_actor& actor, BlockingActor& state, caf::blocking_actor::timeout_type timeout);
  /// caf_main's await_all_actors_done() before the system's end (run()).
  void await_actors();
  /// The id of the next message the actor running now (or main) sends.
  std::string next_message_id();
  /// The id of the next timer `arming` (null: main) arms: "0.1#t2" for its second.
  std::string next_timer_id(const detail::ActorCell* arming);
  void run_jobs();
  /// Ends the actors CAF would have ended as unreachable, at quiescence. Whether any ended.
  bool end_unreachable();
  /// At a run's end while caf_main awaits: the actors alive, which its await waits for for ever.
  std::vector<const detail::ActorCell*> awaited_alive() const;
  void terminated(detail::ActorCell* cell, const caf::error& reason);
  /// The requests still on their way to `cell`, which ends in this step, are answered with CAF's
  /// request_receiver_down by its closed mailbox, as by hand they would be when they arrive; the
  /// requests themselves become dead letters (caf_faults.cpp).
  void bounce_requests_to(const detail::ActorCell& cell);
  /// A crash (explore --crash) ends the event-based actor `cell` in CAF, as if it had failed: its
  /// monitors get a down message and its links an exit, with crash_reason() (caf_faults.cpp).
  void crash(detail::ActorCell& cell);
  /// After a delivery or a loss on `channel`: the places of lost messages next in line are passed.
  void skip_lost(std::uint64_t channel);
  void note_waiting(caf::scheduled_actor& actor, detail::ActorCell& cell);
  /// caf_main's code since a delivery woke one of its blocking actors ends that actor's step.
  void end_main_step();
  /// caf_main waits: its code so far ends its step (or, before the run, step 0), and the run goes
  /// on until a step returns into caf_main (ControlledRuntime::suspended()) or the run ends.
  /// Returns the run's exit status.
  int run_on_from_main();
  detail::ControlledRuntime& controlled_runtime();
  /// The controlled runtime's actor for a CAF actor.
  std::unique_ptr<Actor> make_proxy();
  std::uint64_t channel_of(const detail::ActorCell* sender, const detail::ActorCell* receiver) const;
  detail::ActorCell* cell_of(const caf::abstract_actor* actor) const;
  /// Makes the runtime's timers what CAF's clock holds after a step of `arming` (null: main's).
  void mirror_clock(detail::ActorCell* arming);
  void arm_timer(const void* event, detail::ActorCell* arming);
  /// `cell`'s causal time (main's for null), and CAF's clock set to it while the actor runs.
  caf::actor_clock::time_point time_of(const detail::ActorCell* cell) const;
  void advance_time(const detail::ActorCell* cell, caf::actor_clock::time_point at_least);
  void enter_time_of(const detail::ActorCell* cell);

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
  std::unordered_map<const detail::ActorCell*, std::uint64_t> timers_armed_;  ///< by arming actor, null: main
  std::unordered_map<std::uint64_t, std::uint64_t> sent_on_channel_;
  std::unordered_map<std::uint64_t, std::uint64_t> delivered_on_channel_;
  /// Places of messages lost in flight, past the channel's next delivery (skip_lost()).
  std::unordered_map<std::uint64_t, std::set<std::uint64_t>> lost_on_channel_;
  /// (requester's index, request number) -> the request's message id
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> requests_;
  std::optional<std::string> failure_;                     ///< an actor failed in the step in progress
  std::string exception_;                                  ///< what the last uncaught exception said
  std::unordered_map<const void*, MirroredTimer> timers_;  ///< by clock entry
  detail::ActorCell* main_cell_ = nullptr;                 ///< caf_main's code after an await_all_actors_done() (run())
  /// The actors await_all_actors_done() waits for, as CAF's registry counts them: those spawned
  /// (not hidden, not scoped) and not yet ended.
  std::unordered_map<const detail::ActorCell*, const caf::abstract_actor*> registered_;
  /// Per actor, what the adapter holds for it: messages and its start not yet delivered.
  std::unordered_map<const detail::ActorCell*, std::uint32_t> in_flight_;
  std::uint64_t sends_ = 0;  ///< messages the adapter took (sending())
  /// The latest of them: its type and receiver.
  std::pair<const detail::MessageType*, const detail::ActorCell*> last_send_{};
  bool awaiting_ = false;  ///< caf_main waits in await_all_actors_done() (end_unreachable())
  std::unordered_map<const detail::ActorCell*, caf::actor_clock::time_point> local_time_;  ///< see "Time"
  caf::actor_clock::time_point start_time_;  ///< CAF's clock as the system starts: every actor's first time
  /// Actors whose last stream tick sent nothing and who received nothing since (caf_timers.cpp).
  std::unordered_set<const detail::ActorCell*> idle_ticks_;
  const caf::abstract_actor* firing_to_ = nullptr;  ///< a timer's message goes straight in
  std::unordered_map<const caf::abstract_actor*, BlockingActor> blocking_;
  ThreadBaton baton_;
  caf::blocking_actor* baton_holder_ = nullptr;              ///< the blocking actor whose thread runs now
  std::thread::id run_thread_ = std::this_thread::get_id();  ///< caf_main's, which drives the run
};

}  // namespace exocheck::caf_adapter
