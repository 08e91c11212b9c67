#include "caf_recording.hpp"

#include <algorithm>
#include <cstdlib>

#include <caf/actor_system_config.hpp>
#include <caf/atom.hpp>
#include <caf/downstream_msg.hpp>
#include <caf/system_messages.hpp>
#include <caf/upstream_msg.hpp>

#include "caf_message_types.hpp"
#include "exocheck/actor.hpp"
#include "free_run_recording.hpp"
#include "identity.hpp"
#include "wire_messages.hpp"

namespace exocheck::caf_adapter {
namespace {

/// The step a consume() on this thread is in: the strings its line names live here until it ends.
struct StepInProgress {
  bool active = false;
  std::string actor;
  std::string message;
  std::string type;
  std::uint64_t time = 0;
  std::uint64_t previous_time = 0;  ///< the actor's, for a skip
  const caf::mailbox_element* element = nullptr;
  std::uint64_t sent_at = 0;
};

StepInProgress& step_in_progress() {
  // Never destroyed: caf_main's last step ends in an atexit() handler, after the main thread's
  // thread_local objects are gone.
  thread_local auto* step = new StepInProgress;
  return *step;
}

/// A message no actor's code sent, nor a timer it armed: a thread of the program's own sent it.
constexpr const char* kFromOutside =
    "a message sent outside any actor's code (from a thread of the program's own, or a timer no actor armed)";

}  // namespace

CafRecording* CafRecording::instance_ = nullptr;

void CafRecording::system_constructing(const caf::actor_system_config& config) {
  if (instance_ != nullptr) {
    instance_->unrecordable("a second caf::actor_system");
    return;
  }
  if (auto* recorder = detail::FreeRunRecorder::from_environment()) {
    instance_ = new CafRecording(*recorder);  // lives as long as the process
    std::atexit([] {
      instance_->end_blocking_step();  // caf_main's code since its last receive ended with it
      detail::FreeRunRecorder::from_environment()->flush_all();
    });
    if (caf::get_or(config, "scheduler.policy", caf::atom("stealing")) == caf::atom("testing")) {
      instance_->unrecordable(
          "a program that drives CAF's test coordinator itself (scheduler.policy testing, as CAF's testing DSL does)");
    }
  }
}

CafRecording::CafRecording(detail::FreeRunRecorder& recorder) : recorder_(recorder) {}

CafRecording::ActorRecord& CafRecording::current() {
  // Never destroyed, as step_in_progress(): caf_main's thread records after its thread_locals end.
  thread_local auto* actor = new ActorRecord;
  return *actor;
}

CafRecording::ActorRecord CafRecording::actor_of(const caf::abstract_actor& actor) {
  std::lock_guard lock(mutex_);
  auto found = actors_.find(actor.id());
  return found != actors_.end() ? found->second : nullptr;
}

bool CafRecording::of_the_program(const caf::abstract_actor& actor) const {
  return actors_.count(actor.id()) != 0 || (actor.id() < ended_.size() && ended_[actor.id()]);
}

void CafRecording::ended(const caf::abstract_actor& actor) {
  std::lock_guard lock(mutex_);
  auto found = actors_.find(actor.id());
  if (found == actors_.end()) return;
  latest_ended_ = std::max(latest_ended_, found->second->time);
  if (actor.id() >= ended_.size()) ended_.resize(std::max<std::size_t>(actor.id() + 1, 2 * ended_.size()));
  ended_[actor.id()] = true;
  actors_.erase(found);  // its thread may still hold it (current()) until its resume returns
  // Its timers that did not fire never will (CAF cancels them).
  const auto of_it = [&](auto& timers) {
    timers.erase(timers.lower_bound({actor.id(), 0}), timers.lower_bound({actor.id() + 1, 0}));
  };
  of_it(request_timeouts_);
  of_it(receive_timeouts_);
}

void CafRecording::unrecordable(const std::string& construct) {
  std::lock_guard lock(mutex_);
  if (told_[construct]) return;
  told_[construct] = true;
  recorder_.unrecordable(construct);
  recorder_.flush();
}

void CafRecording::launching(const caf::abstract_actor& actor) {
  const ActorRecord spawner = current();
  const bool on_main = spawner == nullptr && std::this_thread::get_id() == main_thread_;
  if (spawner == nullptr && !on_main)
    unrecordable("an actor spawned outside any actor's code (on a thread of its own)");
  auto made = std::make_shared<RecordedActor>();
  std::lock_guard lock(mutex_);
  made->id =
      spawner != nullptr ? detail::actor_id(spawner->id, ++spawner->spawned) : detail::actor_id("", main_spawned_++);
  // An actor's first step comes after its spawner's step (its initial code runs in CAF as it may).
  made->time = spawner != nullptr ? spawner->time : 0;
  made->spawner = spawner;
  actors_[actor.id()] = std::move(made);
}

// Under control (CafBridge::blocking_launch) its start is a message of its spawner's, delivered as
// a step of its own: its thread runs until it takes its first message or ends.
void CafRecording::blocking_launching(const caf::abstract_actor& actor) {
  const ActorRecord spawner = current();
  const bool on_main = std::this_thread::get_id() == main_thread_;
  const ActorRecord launched = actor_of(actor);
  if (launched == nullptr) return;
  if (spawner == nullptr && !on_main) {
    unrecordable("an actor spawned with blocking_api outside any actor's code");
    return;
  }
  std::lock_guard lock(mutex_);
  launched->start.id = spawner != nullptr ? detail::message_id(spawner->id, ++spawner->sent)
                                          : detail::message_id(detail::kEnvironment, ++main_sent_);
  launched->start.time = spawner != nullptr ? spawner->time : 0;
}

void CafRecording::blocking_started(const caf::abstract_actor& actor) {
  const ActorRecord started = actor_of(actor);
  if (started == nullptr) return;
  Message start;
  {
    std::lock_guard lock(mutex_);
    start = std::move(started->start);
  }
  if (start.id.empty()) return;  // not launched as the program's (a scoped_actor: no thread)
  begin_step(started, std::move(start), "start");
}

void CafRecording::blocking_thread_ending() {
  end_blocking_step();  // what its code did since its last message taken, its cleanup's sends too
}

void CafRecording::sending(const caf::abstract_actor& receiver, const caf::mailbox_element& element) {
  const caf::type_erased_tuple& content = element.content();
  if (content.size() == 1 &&
      (content.match_element<caf::upstream_msg>(0) || content.match_element<caf::downstream_msg>(0) ||
       content.match_element<caf::open_stream_msg>(0))) {
    unrecordable("a CAF stream");
  }
  const ActorRecord& sender = current();
  Message message;
  std::unique_lock lock(mutex_);
  if (!of_the_program(receiver)) return;  // a hidden actor of CAF's: not one of the run's
  if (sender != nullptr) {
    message.id = detail::message_id(sender->id, ++sender->sent);
    message.time = sender->time;
  } else if (std::this_thread::get_id() == main_thread_) {
    message.id = detail::message_id(detail::kEnvironment, ++main_sent_);
  } else {
    lock.unlock();
    message = fired(receiver, element);
    lock.lock();
  }
  // One sent to an actor that ended is named (it counts in its sender's names), never taken.
  if (actors_.count(receiver.id()) != 0) in_flight_[&element] = std::move(message);
}

std::shared_ptr<void> CafRecording::resuming(const caf::abstract_actor& actor) {
  ActorRecord outer = std::move(current());
  current() = actor_of(actor);
  return outer;
}

void CafRecording::resumed(std::shared_ptr<void> previous) {
  current() = std::static_pointer_cast<RecordedActor>(std::move(previous));
}

CafRecording::Message CafRecording::taken(const caf::mailbox_element& element) {
  Message message;
  {
    std::lock_guard lock(mutex_);
    auto found = in_flight_.find(&element);
    if (found != in_flight_.end()) {
      message = std::move(found->second);
      in_flight_.erase(found);
    }
  }
  if (message.id.empty()) unrecordable(kFromOutside);
  return message;
}

bool CafRecording::consuming(const caf::abstract_actor& receiver, const caf::mailbox_element& element) {
  StepInProgress& step = step_in_progress();
  const ActorRecord actor = actor_of(receiver);
  if (actor == nullptr || step.active) return false;
  Message message = taken(element);
  if (message.id.empty()) return false;
  step.element = &element;
  step.sent_at = message.time;
  step.previous_time = actor->time;
  begin_step(actor, std::move(message), system_ != nullptr ? CafMessageTypes::name_of(element, *system_) : "?");
  return true;
}

void CafRecording::consumed(bool skipped, bool receive_timeout) {
  StepInProgress& step = step_in_progress();
  if (!step.active) return;
  step.active = false;
  if (!skipped) {
    if (const ActorRecord& actor = current(); actor != nullptr && receive_timeout) {
      std::lock_guard lock(mutex_);
      actor->receive_timeout = actor->id + "#t" + std::to_string(++actor->timers);
      actor->receive_timeout_time = step.time;
    }
    recorder_.end_step(detail::proto::STEP_OK, "");
    return;
  }
  // Awaiting a response, the actor left the message in its mailbox: delivered later, a step then.
  recorder_.cancel_step();
  if (const ActorRecord& actor = current()) actor->time = step.previous_time;
  std::lock_guard lock(mutex_);
  in_flight_[step.element] = Message{std::move(step.message), step.sent_at};
}

void CafRecording::threw(const std::string& what) {
  StepInProgress& step = step_in_progress();
  if (!step.active) return;
  step.active = false;
  recorder_.end_step(detail::proto::STEP_EXCEPTION, what);
}

void CafRecording::assertion_failed(const std::string& detail) {
  StepInProgress& step = step_in_progress();
  if (step.active) {
    step.active = false;
    recorder_.end_step(detail::proto::STEP_ASSERTION_FAILED, detail);
  } else {
    // An actor's initial code (under control, part of its spawner's step), or caf_main's own.
    recorder_.failed_outside_step(detail::proto::STEP_ASSERTION_FAILED, detail);
  }
  recorder_.flush_all();
}

CafRecording::Message CafRecording::timer_name() {
  RecordedActor* arming = current().get();
  const bool on_main = std::this_thread::get_id() == main_thread_;
  Message name;
  if (arming == nullptr && !on_main) return name;  // no actor's code: a hidden actor's, CAF's own
  // Outside a step (an actor's initial code), under control the timer is its spawner's step's:
  // the spawner's code runs the child's first, in its step (CafBridge::run_jobs).
  const std::uint64_t time = arming != nullptr ? arming->time : 0;
  if (arming != nullptr && !step_in_progress().active) arming = arming->spawner.get();
  std::lock_guard lock(mutex_);
  const std::uint64_t n = arming != nullptr ? ++arming->timers : ++main_timers_;
  name.id = (arming != nullptr ? arming->id : std::string(detail::kEnvironment)) + "#t" + std::to_string(n);
  name.time = time;
  return name;
}

void CafRecording::timer_armed(const caf::mailbox_element& delayed) {
  Message name = timer_name();
  if (name.id.empty()) return;  // CAF's own: what it sends is not taken by the program's actors
  std::lock_guard lock(mutex_);
  delayed_[&delayed] = std::move(name);
}

void CafRecording::timer_armed(const caf::abstract_actor& requester, caf::message_id response) {
  if (actor_of(requester) == nullptr) return;
  Message name = timer_name();
  std::lock_guard lock(mutex_);
  request_timeouts_[{requester.id(), response.integer_value()}] = std::move(name);
}

void CafRecording::receive_timeout_armed(const caf::abstract_actor& armed, std::uint64_t id) {
  const ActorRecord actor = actor_of(armed);
  if (actor == nullptr) return;
  Message name;
  const StepInProgress& step = step_in_progress();
  {
    std::lock_guard lock(mutex_);
    if (step.active && current() == actor) {
      // A become() in the step: the name consumed() gives the step's receive timeout (CAF arms it
      // again as the step ends, under that name).
      name = Message{actor->id + "#t" + std::to_string(actor->timers + 1), step.time};
    } else {
      name = Message{actor->receive_timeout, actor->receive_timeout_time};
    }
  }
  if (name.id.empty()) name = timer_name();  // its first behavior's, made in its initial code
  std::lock_guard lock(mutex_);
  receive_timeouts_[{armed.id(), id}] = std::move(name);
}

CafRecording::Message CafRecording::fired(const caf::abstract_actor& receiver, const caf::mailbox_element& element) {
  std::lock_guard lock(mutex_);
  Message message;
  const caf::type_erased_tuple& content = element.content();
  if (content.size() == 1 && content.match_element<caf::timeout_msg>(0)) {
    auto timeout = receive_timeouts_.find({receiver.id(), content.get_as<caf::timeout_msg>(0).timeout_id});
    if (timeout != receive_timeouts_.end()) {
      message = std::move(timeout->second);
      receive_timeouts_.erase(timeout);
    }
    return message;
  }
  if (auto delayed = delayed_.find(&element); delayed != delayed_.end()) {
    message = std::move(delayed->second);
    delayed_.erase(delayed);
  } else if (auto timeout = request_timeouts_.find({receiver.id(), element.mid.integer_value()});
             element.mid.is_response() && timeout != request_timeouts_.end()) {
    message = std::move(timeout->second);
    request_timeouts_.erase(timeout);
  }
  return message;
}

// Under control (CafBridge::await_actors()), caf_main's await is a message to an actor of its own,
// made the first time (the next top-level actor), sent in the step in progress, which ends there;
// once every other actor has ended it is delivered, and caf_main's code after it is that step.
void CafRecording::main_awaits() {
  if (std::this_thread::get_id() != main_thread_) return;
  const ActorRecord sender = current();
  {
    std::lock_guard lock(mutex_);
    if (main_actor_ == nullptr) {  // spawned by the code running, as the bridge makes it
      main_actor_ = std::make_shared<RecordedActor>();
      main_actor_->id =
          sender != nullptr ? detail::actor_id(sender->id, ++sender->spawned) : detail::actor_id("", main_spawned_++);
      main_actor_->spawner = sender;
    }
    awaited_.id = sender != nullptr ? detail::message_id(sender->id, ++sender->sent)
                                    : detail::message_id(detail::kEnvironment, ++main_sent_);
    awaited_.time = sender != nullptr ? sender->time : 0;
  }
  end_blocking_step();  // caf_main waits: the step its code belonged to ends
}

void CafRecording::main_awaited() {
  if (std::this_thread::get_id() != main_thread_ || main_actor_ == nullptr) return;
  Message awaited;
  {
    std::lock_guard lock(mutex_);
    awaited = std::move(awaited_);
    // Every actor's steps come before it (CafBridge::deliver(CafAllDone)).
    awaited.time = std::max(awaited.time, latest_ended_);
    for (const auto& [id, actor] : actors_) awaited.time = std::max(awaited.time, actor->time);
  }
  begin_step(main_actor_, std::move(awaited), "await_all_actors_done");
}

// Under control the timeout is a timer armed by the step the receive's code belongs to, named by
// what the actor's receives got before it (CafBridge::arm_receive_timeout).
void CafRecording::blocking_timed_out(const caf::abstract_actor& waiting) {
  const ActorRecord actor = actor_of(waiting);
  if (actor == nullptr) return;
  Message timeout;
  {
    std::lock_guard lock(mutex_);
    timeout.id = actor->id + "#w" + std::to_string(++actor->received);
    if (const ActorRecord& arming = current()) timeout.time = arming->time;
  }
  end_blocking_step();
  begin_step(actor, std::move(timeout), "timeout:blocking receive");
}

bool CafRecording::blocking_taking(const caf::abstract_actor& receiver, const caf::mailbox_element& element) {
  const ActorRecord actor = actor_of(receiver);
  if (actor == nullptr) return false;
  Message message = taken(element);
  if (message.id.empty()) return false;
  {
    std::lock_guard lock(mutex_);
    ++actor->received;
  }
  end_blocking_step();
  begin_step(actor, std::move(message), system_ != nullptr ? CafMessageTypes::name_of(element, *system_) : "?");
  return true;
}

void CafRecording::begin_step(const ActorRecord& actor, Message message, std::string type) {
  StepInProgress& step = step_in_progress();
  current() = actor;
  step.active = true;
  step.actor = actor->id;
  step.message = std::move(message.id);
  step.type = std::move(type);
  step.time = actor->time = std::max(actor->time, message.time) + 1;
  // Its initial code is over: a chain of actors that each spawn the next and end is not kept.
  actor->spawner.reset();
  recorder_.begin_step(detail::RecordedStep{&step.actor, &step.message, &step.type}, step.time);
}

void CafRecording::blocking_skipped() {
  unrecordable("a message a blocking receive skipped (no handler of it matched)");
}

void CafRecording::end_blocking_step() {
  StepInProgress& step = step_in_progress();
  if (!step.active) return;
  step.active = false;
  recorder_.end_step(detail::proto::STEP_OK, "");
}

}  // namespace exocheck::caf_adapter
