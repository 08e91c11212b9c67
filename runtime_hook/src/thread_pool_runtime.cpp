#include "thread_pool_runtime.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <thread>

#include "exocheck/actor.hpp"
#include "identity.hpp"
#include "step_execution.hpp"

namespace exocheck::detail {

ThreadPoolRuntime::ThreadPoolRuntime(unsigned threads)
    : threads_(threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

ThreadPoolRuntime::~ThreadPoolRuntime() {
  if (pool_) pool_->join();
}

ActorCell* ThreadPoolRuntime::create_cell(ActorCell* parent) {
  // parent->children is only touched by the parent's own step, so it needs no lock.
  std::lock_guard lock(cells_mutex_);
  std::string id = parent != nullptr ? actor_id(parent->id, ++parent->children) : actor_id("", top_level_actors_++);
  cells_.push_back(std::make_unique<ActorCell>(std::move(id), static_cast<std::uint32_t>(cells_.size()), parent));
  return cells_.back().get();
}

void ThreadPoolRuntime::adopt(ActorCell* cell, std::unique_ptr<Actor> actor) {
  std::lock_guard lock(cell->mutex);
  cell->actor = std::move(actor);
  cell->creation_seq = ++creation_seq_;
  // Messages may have arrived while the constructor ran; they wait for the actor to exist.
  if (!cell->mailbox.empty()) schedule_locked(*cell);
}

void ThreadPoolRuntime::send(std::unique_ptr<Envelope> envelope) {
  // A timer's firing carries the time of the step that armed it (arm()), not the timer thread's.
  if (recorder_ != nullptr && envelope->timer == TimerKind::kNone) {
    envelope->recorded_time = FreeRunRecorder::time_of_sender(*envelope);
  }
  ActorCell& receiver = *envelope->receiver;
  std::unique_lock lock(receiver.mutex);
  if (envelope->monitor_request) {
    const Watcher watcher{envelope->sender, envelope->incarnation};
    // Under control the request is a step of the runtime's at its receiver: recorded as one.
    if (recorder_ != nullptr) {
      recorder_->runtime_step(receiver, *envelope, FreeRunRecorder::step_time(receiver, *envelope));
    }
    if (!receiver.destroyed) {
      receiver.monitors.push_back(watcher);
      return;
    }
    auto down = down_message(receiver, watcher, "not running");
    lock.unlock();
    send(std::move(down));
    return;
  }
  if (receiver.destroyed) {
    std::lock_guard out(output_mutex_);
    std::fprintf(stderr, "exocheck: warning: dead letter %s (%s) to destroyed actor %s\n", envelope->id.c_str(),
                 envelope->type->name->c_str(), receiver.id.c_str());
    return;
  }
  // The reply to a call that timed out is dropped.
  auto& abandoned = receiver.abandoned_calls;
  if (const auto call = std::find(abandoned.begin(), abandoned.end(), envelope->answers);
      !envelope->answers.empty() && call != abandoned.end()) {
    abandoned.erase(call);
    return;
  }
  receiver.mailbox.push_back(std::move(envelope));
  schedule_locked(receiver);
}

// An armed timer is work to wait for: run() returns once every timer fired or was cancelled.
void ThreadPoolRuntime::arm(std::unique_ptr<Envelope> firing) {
  if (recorder_ != nullptr) firing->recorded_time = FreeRunRecorder::time_of_sender(*firing);
  std::lock_guard lock(timers_mutex_);
  const TimerKey key{firing->receiver, firing->series};
  ArmedTimer& armed = timers_[key];
  armed.firing = std::move(firing);
  ++active_;
  if (running_) start_locked(key, armed);
}

void ThreadPoolRuntime::start_locked(const TimerKey& key, ArmedTimer& armed) {
  armed.clock = std::make_unique<boost::asio::steady_timer>(pool_->get_executor(), armed.firing->delay);
  armed.clock->async_wait([this, key](const boost::system::error_code& error) {
    if (!error) fire(key);  // else cancelled: cancel() took it out
    work_done();
  });
}

void ThreadPoolRuntime::fire(const TimerKey& key) {
  std::unique_ptr<Envelope> firing;
  {
    std::lock_guard lock(timers_mutex_);
    const auto armed = timers_.find(key);
    if (armed == timers_.end()) return;
    firing = std::move(armed->second.firing);
    timers_.erase(armed);
  }
  send(std::move(firing));
}

void ThreadPoolRuntime::cancel(ActorCell* cell, const std::string& series) {
  {
    std::lock_guard lock(timers_mutex_);
    const auto armed = timers_.find(TimerKey{cell, series});
    if (armed != timers_.end()) {
      const bool started = armed->second.clock != nullptr;
      timers_.erase(armed);  // a started clock's wait ends as cancelled, and counts itself done
      if (!started) work_done();
      return;
    }
  }
  // It fired already: a firing still in the mailbox is taken out.
  std::lock_guard lock(cell->mutex);
  std::erase_if(cell->mailbox, [&](const auto& e) { return e->timer != TimerKind::kNone && e->series == series; });
}

void ThreadPoolRuntime::abandon_reply(ActorCell* cell, const std::string& call) {
  std::lock_guard lock(cell->mutex);
  const auto pending = std::find_if(cell->mailbox.begin(), cell->mailbox.end(),
                                    [&](const auto& e) { return e->timer == TimerKind::kNone && e->answers == call; });
  if (pending != cell->mailbox.end()) {
    cell->mailbox.erase(pending);
  } else {
    cell->abandoned_calls.push_back(call);
  }
}

// By hand a choice is random, as the program's environment would be. Before run() it is refused
// as under exploration, where such a value could not be explored: a program behaves alike in both.
std::uint32_t ThreadPoolRuntime::choose(std::uint32_t range) {
  if (!running_) {
    throw std::logic_error(
        "exocheck::choose() was called in main before System::run(): only choices in steps "
        "(handlers, constructors they run) can be explored");
  }
  thread_local std::mt19937_64 random(std::random_device{}());
  const auto value = static_cast<std::uint32_t>(std::uniform_int_distribution<std::uint64_t>(0, range - 1)(random));
  if (recorder_ != nullptr) recorder_->note_choice(range, value);
  return value;
}

void ThreadPoolRuntime::work_done() {
  if (--active_ == 0) {
    std::lock_guard lock(idle_mutex_);
    idle_.notify_all();
  }
}

void ThreadPoolRuntime::destroy(ActorCell* cell) {
  cell->destroy_requested = true;
}

void ThreadPoolRuntime::schedule_locked(ActorCell& cell) {
  if (cell.scheduled || !cell.actor || !running_) return;
  cell.scheduled = true;
  ++active_;
  boost::asio::post(*pool_, [this, &cell] {
    drain(cell);
    work_done();
  });
}

std::unique_ptr<Envelope> ThreadPoolRuntime::take_enabled_locked(ActorCell& cell) {
  // Guards read the actor's state; only this drain task changes it, so reading here is safe.
  for (auto it = cell.mailbox.begin(); it != cell.mailbox.end(); ++it) {
    if (is_enabled(**it)) {
      auto envelope = std::move(*it);
      cell.mailbox.erase(it);
      return envelope;
    }
  }
  return nullptr;
}

void ThreadPoolRuntime::drain(ActorCell& cell) {
  for (;;) {
    std::unique_ptr<Envelope> envelope;
    std::uint64_t time = 0;
    {
      std::lock_guard lock(cell.mutex);
      envelope = take_enabled_locked(cell);
      if (!envelope) {
        cell.scheduled = false;
        return;
      }
      if (recorder_ != nullptr) time = FreeRunRecorder::step_time(cell, *envelope);
    }
    if (recorder_ != nullptr) recorder_->begin_step(cell, *envelope, time);
    const StepVerdict verdict = execute_step(*envelope);
    if (recorder_ != nullptr) recorder_->end_step(verdict.outcome, verdict.detail);
    if (verdict.outcome != proto::STEP_OK) {
      report_failure(cell, *envelope,
                     (verdict.outcome == proto::STEP_ASSERTION_FAILED ? "assertion failed: " : "uncaught exception: ") +
                         verdict.detail);
    }
    // A failed step ends its actor, as in controlled mode.
    if (cell.destroy_requested || verdict.outcome != proto::STEP_OK) {
      finish_destroy(cell, verdict.outcome != proto::STEP_OK ? "failed" : "destroyed");
      return;
    }
  }
}

void ThreadPoolRuntime::finish_destroy(ActorCell& cell, const char* reason) {
  std::vector<std::unique_ptr<Envelope>> downs;
  {
    std::lock_guard lock(cell.mutex);
    cell.destroy_requested = false;
    cell.destroyed = true;
    cell.scheduled = false;
    for (const auto& envelope : cell.mailbox) {
      std::lock_guard out(output_mutex_);
      std::fprintf(stderr, "exocheck: warning: dead letter %s (%s) pending at destroyed actor %s\n",
                   envelope->id.c_str(), envelope->type->name->c_str(), cell.id.c_str());
    }
    cell.mailbox.clear();
    for (const Watcher& watcher : cell.monitors) downs.push_back(down_message(cell, watcher, reason));
    cell.monitors.clear();
  }
  for (auto& down : downs) send(std::move(down));
}

void ThreadPoolRuntime::report_failure(const ActorCell& cell, const Envelope& envelope, const std::string& what) {
  failed_ = true;
  std::lock_guard out(output_mutex_);
  std::fprintf(stderr, "exocheck: %s (actor %s handling %s %s)\n", what.c_str(), cell.id.c_str(),
               envelope.type->name->c_str(), envelope.id.c_str());
}

bool ThreadPoolRuntime::report_deadlock() {
  bool deadlocked = false;
  std::lock_guard lock(cells_mutex_);
  for (const auto& cell : cells_) {
    if (cell->destroyed) continue;
    if (!cell->awaiting.empty()) {
      std::fprintf(stderr, "exocheck: deadlock: actor %s waits for the reply to %s\n", cell->id.c_str(),
                   cell->awaiting.c_str());
      if (recorder_ != nullptr) recorder_->deadlock("actor " + cell->id + " waits for the reply to " + cell->awaiting);
      deadlocked = true;
    }
    for (const auto& envelope : cell->mailbox) {
      std::fprintf(stderr, "exocheck: deadlock: %s (%s) pending at %s, never enabled\n", envelope->id.c_str(),
                   envelope->type->name->c_str(), cell->id.c_str());
      if (recorder_ != nullptr) {
        recorder_->deadlock(envelope->id + " (" + *envelope->type->name + ") pending at " + cell->id +
                            ", never enabled");
      }
      deadlocked = true;
    }
  }
  return deadlocked;
}

int ThreadPoolRuntime::run() {
  pool_ = std::make_unique<boost::asio::thread_pool>(threads_);
  running_ = true;
  {
    std::lock_guard lock(cells_mutex_);
    for (auto& cell : cells_) {
      std::lock_guard cell_lock(cell->mutex);
      if (cell->destroy_requested) {
        cell->destroyed = true;  // destroyed by its own constructor
        cell->mailbox.clear();
      }
      if (!cell->mailbox.empty()) schedule_locked(*cell);
    }
  }
  {
    std::lock_guard lock(timers_mutex_);
    for (auto& [key, armed] : timers_) {
      if (!armed.clock) start_locked(key, armed);  // those armed since running_ was set have one
    }
  }
  {
    std::unique_lock lock(idle_mutex_);
    idle_.wait(lock, [this] { return active_ == 0; });
  }
  pool_->join();
  const bool deadlocked = report_deadlock();
  if (recorder_ != nullptr) recorder_->flush_all();  // every pool thread's lines: they ended
  return failed_ || deadlocked ? 1 : 0;
}

}  // namespace exocheck::detail
