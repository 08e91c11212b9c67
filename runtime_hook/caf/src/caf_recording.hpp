#pragma once
// Recording a free run of a CAF program (exocheck record; EXOCHECK_RECORD=LOG), CAF's own
// scheduler left as it is: the adapter hooks the deliveries, it does not switch CAF to its test
// scheduler. The actors and messages get the names the CAF bridge gives them under control (an
// actor by its spawner and rank, a message by its sender and count; caf_main's are env's), so that
// `exocheck replay` can deliver each actor's messages in the recorded order.
//
// An event-based actor's code runs in CAF's resume(), on one thread at a time: what it spawns and
// sends there is its own. A step is a message its consume() took (not one it skipped while awaiting
// a response, which stays in the mailbox), at the Lamport time of free_run_recording.hpp. What a
// replay cannot follow yet is written as a "U" line naming it, so that `exocheck record` refuses to
// save a trace that would not reproduce: a message a blocking receive skipped, a message from a
// thread of the program's own, streams. A blocking receive's timeout that fired
// is a step of its actor, named by what its receives got before ("<actor>#w<n>"), as under control.
// A timer that never fires costs nothing: under control timers are named apart from messages
// (CafBridge::next_timer_id). A delayed message, a request's timeout or a receive timeout
// (after(...)) that fires is named as the bridge names it, from the step that armed it, and its
// message is the step's that takes it.
//
// Memory stays bounded in a long-running program: an actor's record goes when it ends (CAF's
// cleanup cancels its timeouts), kept only while its code still runs or an actor it spawned may
// still name a timer after it; of an ended actor one bit is left, so that what is sent to it
// still counts in its sender's names. What is in flight is keyed by mailbox element, whose
// address the next element takes over, and a timer's name goes when it fires or its actor ends.
//
// Blocking actors are actors of the run as under control: a step of one begins as its receive takes
// a message, and its code until the next message taken is that step's (under control, a delivery
// to a blocking actor that waits returns into its code until its next wait): caf_main's
// scoped_actors on caf_main's thread, an actor spawned with blocking_api on its own, whose start is
// a step of its own.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/mailbox_element.hpp>
#include <caf/scheduled_actor.hpp>

namespace exocheck::detail {
class FreeRunRecorder;
}

namespace exocheck::caf_adapter {

class CafRecording {
 public:
  /// The recording of this process; null when EXOCHECK_RECORD names no log, or an agent controls it.
  static CafRecording* instance() { return instance_; }
  /// Called as the actor system is made on caf_main's thread, when no agent controls the process.
  static void system_constructing(const caf::actor_system_config& config);
  void system_constructed(caf::actor_system& system) { system_ = &system; }

  /// An actor of the program is made (an event-based actor's launch, a blocking actor's
  /// construction), on its spawner's thread: its name.
  void launching(const caf::abstract_actor& actor);
  /// An actor spawned with blocking_api is launched (its start: a message of its spawner's), its
  /// thread starts (a step of its own begins), and the thread ends (the step it was in ends).
  void blocking_launching(const caf::abstract_actor& actor);
  void blocking_started(const caf::abstract_actor& actor);
  void blocking_thread_ending();
  /// A message for `receiver` goes into its mailbox: its name and its sender's time.
  void sending(const caf::abstract_actor& receiver, const caf::mailbox_element& element);
  /// `actor`'s code runs on this thread until resumed(): what it sends and spawns is its own.
  std::shared_ptr<void> resuming(const caf::abstract_actor& actor);
  void resumed(std::shared_ptr<void> previous);
  /// `actor` ended (CAF's cleanup cancels its timeouts): its record goes.
  void ended(const caf::abstract_actor& actor);
  /// consume() is about to take `element`: a step begins (true), unless it is not one of the run's.
  bool consuming(const caf::abstract_actor& actor, const caf::mailbox_element& element);
  /// consume() returned: `skipped` (the message stays in the mailbox) takes the step back. With
  /// `receive_timeout` (its behavior now has an after(...)), the step armed a receive timeout as
  /// it does under control, where every step of such an actor re-arms it (a free run re-arms it
  /// once per resume, however many messages that took).
  void consumed(bool skipped, bool receive_timeout);
  /// A handler threw `what` out of consume(): the step ends with an exception.
  void threw(const std::string& what);
  /// assert() failed: the step in progress fails (the process aborts next).
  void assertion_failed(const std::string& detail);
  /// The receive's timeout fired first: a step of the actor, "<actor>#w<n>" for its n-th message
  /// taken or timeout, as under control.
  void blocking_timed_out(const caf::abstract_actor& actor);
  /// A blocking actor's receive (caf_main's scoped_actor) takes `element` (not one passed over for
  /// its id): the step of the actor's previous message (caf_main's code since) ends and this
  /// message's begins; true then.
  bool blocking_taking(const caf::abstract_actor& actor, const caf::mailbox_element& element);
  /// The receive skipped the message it took after all (no handler matched).
  void blocking_skipped();
  /// caf_main awaits its actors (await_all_actors_done() called by caf_main itself), and the wait
  /// returned: caf_main's code after it is a step of its own actor, as under control.
  void main_awaits();
  void main_awaited();
  /// CAF's real clock gets an entry that sends a message as it fires: a delayed message (`delayed`,
  /// the element it will put into the mailbox), or a request's timeout for `requester` (its error
  /// has the response's id `response`). Named as under control, where a timer counts apart from
  /// messages (CafBridge::next_timer_id): "<arming>#t<n>", the arming actor's n-th, the arming
  /// actor the one whose step this is (for an actor's initial code, its spawner; caf_main: env).
  void timer_armed(const caf::mailbox_element& delayed);
  void timer_armed(const caf::abstract_actor& requester, caf::message_id response);
  /// CAF's real clock gets `actor`'s receive timeout numbered `id`: named after the latest step
  /// that armed one (consumed()), or, before any, as timer_armed() names a timer.
  void receive_timeout_armed(const caf::abstract_actor& actor, std::uint64_t id);

 private:
  struct Message {
    std::string id;  ///< empty: sent outside any actor's code
    std::uint64_t time = 0;
  };
  struct RecordedActor {
    std::string id;
    std::uint64_t sent = 0;
    std::uint64_t spawned = 0;
    std::uint64_t time = 0;  ///< its latest step's Lamport time
    std::uint64_t timers = 0;
    /// Until its first step (its initial code may name a timer after its spawner); null: caf_main.
    std::shared_ptr<RecordedActor> spawner;
    std::string receive_timeout;  ///< the name of the receive timeout its latest step armed
    std::uint64_t receive_timeout_time = 0;
    Message start;               ///< blocking_api: its start's name, until its thread starts
    std::uint64_t received = 0;  ///< a blocking actor's: messages its receives took, timeouts fired
  };

  explicit CafRecording(detail::FreeRunRecorder& recorder);
  using ActorRecord = std::shared_ptr<RecordedActor>;
  /// The actor whose code runs on this thread; null for caf_main's (and other threads').
  static ActorRecord& current();
  ActorRecord actor_of(const caf::abstract_actor& actor);
  /// Whether `actor` is one of the program's (alive or ended), not a hidden one of CAF's.
  bool of_the_program(const caf::abstract_actor& actor) const;
  /// A step begins on this thread: `actor` takes `message`, at the Lamport time after both; the
  /// actor's code runs on this thread (for a blocking actor, until it takes its next message).
  void begin_step(const ActorRecord& actor, Message message, std::string type);
  /// The blocking actor's step in progress on this thread ends.
  void end_blocking_step();
  /// The name `element` was sent under, taken out of what is in flight; an empty id (and a "U"
  /// line) when no actor's code sent it.
  Message taken(const caf::mailbox_element& element);
  /// The name of a timer armed now on this thread (an empty id: no actor's code armed it).
  Message timer_name();
  /// A message from outside any actor's code (CAF's clock thread): a named timer's, or unknown.
  Message fired(const caf::abstract_actor& receiver, const caf::mailbox_element& element);
  /// Writes the "U" line for `construct` once.
  void unrecordable(const std::string& construct);

  static CafRecording* instance_;

  detail::FreeRunRecorder& recorder_;
  caf::actor_system* system_ = nullptr;
  std::thread::id main_thread_ = std::this_thread::get_id();
  std::mutex mutex_;  ///< guards what follows
  /// By CAF's actor id, which it never gives twice (an address it frees may be a new actor's).
  std::unordered_map<caf::actor_id, ActorRecord> actors_;
  std::vector<bool> ended_;         ///< by CAF's actor id: the program's actors that ended
  std::uint64_t latest_ended_ = 0;  ///< the latest step time of those
  std::unordered_map<const caf::mailbox_element*, Message> in_flight_;
  std::uint64_t main_sent_ = 0;
  std::uint64_t main_spawned_ = 0;
  std::uint64_t main_timers_ = 0;
  std::unordered_map<const caf::mailbox_element*, Message> delayed_;             ///< by the element it sends
  std::map<std::pair<caf::actor_id, std::uint64_t>, Message> request_timeouts_;  ///< by requester, response id
  std::map<std::pair<caf::actor_id, std::uint64_t>, Message> receive_timeouts_;  ///< by actor, timeout id
  ActorRecord main_actor_;                      ///< caf_main's own, made at its first await
  Message awaited_;                             ///< the await in progress
  std::unordered_map<std::string, bool> told_;  ///< constructs written as "U" lines
};

}  // namespace exocheck::caf_adapter
