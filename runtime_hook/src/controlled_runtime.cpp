#include "controlled_runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "delivery_order.hpp"
#include "exocheck/actor.hpp"
#include "exocheck/wire/delivery_label.hpp"
#include "exocheck/wire/utf8.hpp"
#include "guard_history.hpp"
#include "identity.hpp"
#include "step_execution.hpp"
#include "timer_semantics.hpp"
#include "type_name.hpp"

namespace exocheck::detail {

namespace {

// The runtime whose step in progress the process's last words record.
std::atomic<ControlledRuntime*> speaking_runtime{nullptr};

void record_step_cut_short(int signal) {
  if (ControlledRuntime* runtime = speaking_runtime.load()) runtime->record_step_cut_short(signal);
}

}  // namespace

ControlledRuntime::ControlledRuntime(ControlChannel& channel, ForkServer* fork_server)
    : channel_(channel), fork_server_(fork_server), event_(event_frame_->mutable_event()) {
  begin_step(0);
  event_->set_actor(kEnvironment);
  speaking_runtime.store(this);
  set_last_words(&exocheck::detail::record_step_cut_short);
}

ControlledRuntime::~ControlledRuntime() {
  set_last_words(nullptr);
  speaking_runtime.store(nullptr);
  // A fork server's run ends here and its memory is put back or its process ends: freeing the
  // event's strings and lists was a twentieth of the hook's work per run.
  if (fork_server_ != nullptr) static_cast<void>(event_frame_.release());
}

ActorCell* ControlledRuntime::create_cell(ActorCell* parent) {
  std::string id = parent != nullptr ? actor_id(parent->id, ++parent->children) : actor_id("", top_level_actors_++);
  cells_.push_back(std::make_unique<ActorCell>(std::move(id), static_cast<std::uint32_t>(cells_.size()), parent));
  event_->add_created(cells_.back()->id);
  return cells_.back().get();
}

void ControlledRuntime::adopt(ActorCell* cell, std::unique_ptr<Actor> actor) {
  cell->actor = std::move(actor);
  cell->creation_seq = ++creation_seq_;
  cell->clock = step_clock_;  // an actor's first step happens after the step that created it
  // Started in step 0 on a thread of its own: after what its spawner's thread had done.
  if (!step_clock_ && starts_apart_) start_clocks_[cell] = start_clock_of(cell->parent);
  auto* type = event_->add_actor_types();
  type->set_actor(cell->id);
  cell->type = &type_name_of(*cell->actor);
  type->set_type(*cell->type);
}

void ControlledRuntime::name_type(ActorCell* cell, std::string type) {
  cell->type = &*adapter_type_names_.insert(type).first;
  for (auto& entry : *event_->mutable_actor_types()) {
    if (entry.actor() == cell->id) entry.set_type(std::move(type));
  }
}

const std::string& ControlledRuntime::type_name_of(const Actor& actor) {
  const std::type_index type(typeid(actor));
  auto found = type_names_.find(type);
  if (found != type_names_.end()) return found->second;
  return type_names_.emplace(type, readable_type_name(type.name())).first->second;
}

void ControlledRuntime::send(std::unique_ptr<Envelope> envelope) {
  envelope->send_seq = ++send_seq_;
  envelope->clock = step_clock_;
  auto* sent = event_->add_sent();
  if (!step_clock_ && starts_apart_) {
    // Sent in step 0 by main or an actor's start: what its thread had seen then.
    VectorClock& thread = start_clock_of(envelope->sender);
    const std::int64_t index = envelope->sender != nullptr ? std::int64_t{envelope->sender->index} : -1;
    thread.raise(start_key(index), static_cast<std::uint32_t>(envelope->send_seq));
    envelope->clock = std::make_shared<const VectorClock>(thread);
    record_start_clock(thread, *sent->mutable_start_clock());
  }
  sent->set_id(envelope->id);
  sent->set_receiver(envelope->receiver->id);
  sent->set_type(*envelope->type->name);
  if (envelope->timer != TimerKind::kNone) {
    sent->set_timer(static_cast<proto::TimerKind>(envelope->timer));
    sent->set_delay_ns(static_cast<std::uint64_t>(envelope->delay.count()));
  }
  if (envelope->quiescent) {
    sent->set_quiescent(true);
    quiescent_sent_ = true;
  }
  // The network's faults before anything of the receiver's is read: what they offer is the
  // sender's alone (dependency.md, "Faults and monitors").
  const NetworkFault fault = faults_on_ ? network_fault(*envelope) : NetworkFault::kNone;
  last_send_lost_ = fault == NetworkFault::kLost;
  if (fault == NetworkFault::kLost) return;
  std::unique_ptr<Envelope> copy = fault == NetworkFault::kDuplicated ? copy_of(*envelope) : nullptr;
  enqueue(std::move(envelope), *sent);
  if (copy) {
    auto* copy_sent = event_->add_sent();
    copy_sent->set_id(copy->id);
    copy_sent->set_receiver(copy->receiver->id);
    copy_sent->set_type(*copy->type->name);
    copy_sent->set_duplicate_of(sent->id());
    enqueue(std::move(copy), *copy_sent);
  }
}

void ControlledRuntime::enqueue(std::unique_ptr<Envelope> envelope, proto::SentMessage& sent) {
  if (envelope->receiver->destroyed && !envelope->monitor_request) {
    dead_letters_.push_back(envelope->id);
    event_->add_dead_letters(envelope->id);
    return;
  }
  // The reply to a call that timed out is dropped as it is sent.
  auto& abandoned = envelope->receiver->abandoned_calls;
  if (const auto call = std::find(abandoned.begin(), abandoned.end(), envelope->answers);
      !envelope->answers.empty() && call != abandoned.end()) {
    abandoned.erase(call);
    event_->add_cancelled(envelope->id);
    return;
  }
  note_rejections(*envelope, sent);
  pending_.push_back(std::move(envelope));
}

// No time passes: a timer is a pending message of its actor from now on, and fires when the
// schedule delivers it; its due time only orders what views show.
void ControlledRuntime::arm(std::unique_ptr<Envelope> firing) {
  firing->due_ns = now_ns_ + static_cast<std::uint64_t>(firing->delay.count());
  send(std::move(firing));
}

template <typename Matches>
bool ControlledRuntime::withdraw(Matches matches) {
  const auto found = std::find_if(pending_.begin(), pending_.end(), [&](const auto& e) { return matches(*e); });
  if (found == pending_.end()) return false;
  event_->add_cancelled((*found)->id);
  pending_.erase(found);
  return true;
}

void ControlledRuntime::cancel(ActorCell* cell, const std::string& series) {
  withdraw([&](const Envelope& e) { return e.receiver == cell && e.timer != TimerKind::kNone && e.series == series; });
}

void ControlledRuntime::abandon_reply(ActorCell* cell, const std::string& call) {
  const bool pending = withdraw(
      [&](const Envelope& e) { return e.receiver == cell && e.timer == TimerKind::kNone && e.answers == call; });
  if (!pending) cell->abandoned_calls.push_back(call);
}

void ControlledRuntime::destroy(ActorCell* cell) {
  if (!cell->destroy_requested) destroying_.push_back(cell);
  cell->destroy_requested = true;
}

void ControlledRuntime::begin_step(std::uint32_t step) {
  event_->Clear();
  event_->set_step(step);
}

void ControlledRuntime::finish_destroy(ActorCell& cell, const char* reason) {
  cell.destroy_requested = false;
  cell.destroyed = true;
  tell_monitors(cell, reason);
  // A monitor request is answered by an ended actor too.
  auto dead = std::stable_partition(pending_.begin(), pending_.end(), [&](const auto& envelope) {
    return envelope->receiver != &cell || envelope->monitor_request;
  });
  for (auto it = dead; it != pending_.end(); ++it) {
    dead_letters_.push_back((*it)->id);
    event_->add_dead_letters((*it)->id);
  }
  pending_.erase(dead, pending_.end());
}

void ControlledRuntime::finish_requested_destroys() {
  for (ActorCell* cell : destroying_) {
    if (cell->destroy_requested) finish_destroy(*cell, "destroyed");
  }
  destroying_.clear();
}

void ControlledRuntime::collect_enabled() {
  enabled_.clear();
  candidates_.clear();
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (is_enabled(*pending_[i])) enabled_.push_back(i);
  }
  hold_back_by_order(delivery_, enabled_, [this](std::size_t i) {
    const Envelope& envelope = *pending_[i];
    return SendFacts{envelope.receiver->index, envelope.sender != nullptr ? envelope.sender->index : -1,
                     envelope.send_seq, envelope.clock.get(), envelope.timer != TimerKind::kNone};
  });
  if (timers_ == proto::TIMERS_QUIESCENT || quiescent_sent_) {
    keep_quiescent_deliveries(
        timers_, enabled_, [this](std::size_t i) { return quiescent_firing(*pending_[i]); },
        [this](std::size_t i) { return pending_[i]->due_ns; });
  }
  for (std::size_t i : enabled_) {
    const ActorCell& receiver = *pending_[i]->receiver;
    candidates_.push_back({pending_[i]->send_seq, receiver.index, receiver.creation_seq, &receiver.id});
  }
}

proto::StepOutcome ControlledRuntime::execute(std::size_t pending_index, std::uint32_t step) {
  std::unique_ptr<Envelope> envelope = std::move(pending_[pending_index]);
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(pending_index));
  ActorCell& cell = *envelope->receiver;

  auto clock = std::make_shared<VectorClock>(cell.clock ? *cell.clock : VectorClock{});
  // An actor started in step 0 on a thread of its own: its first step comes after its start.
  if (!cell.clock && starts_apart_) {
    if (const auto start = start_clocks_.find(&cell); start != start_clocks_.end()) clock->merge(start->second);
  }
  if (envelope->clock) {
    clock->merge(*envelope->clock);
  } else {
    clock->raise(kStepZeroSends, static_cast<std::uint32_t>(envelope->send_seq));
  }
  clock->tick(cell.index);
  step_clock_ = clock;
  cell.clock = clock;

  event_->set_step(step);
  event_->set_actor(cell.id);
  event_->set_message(envelope->id);
  event_->set_sender(envelope->sender != nullptr ? envelope->sender->id : kEnvironment);
  event_->set_type(*envelope->type->name);
  const bool kept = step < kept_steps_;  // its event is in the buffer already: only what the run reads
  if (!kept) event_->set_summary(wire::valid_utf8(envelope->type->summarize(envelope->payload.get())));
  // A call with a timeout has two answers, its reply and its timeout, enabled together: neither is a
  // reply in the engine's sense (nothing else enabled at the actor), they race.
  event_->set_reply(!cell.awaiting.empty() && envelope->answers == cell.awaiting && cell.call_timeout.empty());
  if (envelope->timer != TimerKind::kNone) {
    event_->set_timer(static_cast<proto::TimerKind>(envelope->timer));
    now_ns_ = std::max(now_ns_, envelope->due_ns);
  }
  event_->set_time_ns(now_ns_);
  if (envelope->quiescent) event_->set_quiescent(true);
  if (!kept) record_clock(*clock);
  if (envelope->monitor_request) {
    answer_monitor_request(*envelope);
    return proto::STEP_OK;
  }
  remember_guard_views(cell, step);

  step_in_progress_ = true;
  const StepVerdict verdict = execute_step(*envelope);
  event_->set_outcome(verdict.outcome);
  if (!verdict.detail.empty()) event_->set_detail(wire::valid_utf8(verdict.detail));
  // A failed step ends its actor, as an uncaught exception ends an ActorFoundry actor.
  if (cell.destroy_requested || verdict.outcome != proto::STEP_OK) {
    finish_destroy(cell, verdict.outcome != proto::STEP_OK ? "failed" : "destroyed");
    event_->set_destroyed(true);
  } else if (faults_.crashes() != 0) {
    offer_crash(cell);
  }
  // Others end in this step too when an adapter's framework ends them (a CAF actor whose start
  // fails): their pending messages become dead letters; the event's flag is the receiver's only.
  finish_requested_destroys();
  return verdict.outcome;
}

namespace {

// Prefix entries followed as they are: all of them, but for an optimal DPOR item's last one,
// which is delivered as a step after the prefix (it wakes its receiver's sleeping messages).
std::uint32_t firm_prefix(const proto::RunRequest& request) {
  return static_cast<std::uint32_t>(request.prefix_size()) - (request.wakeup_entries() != 0 ? 1 : 0);
}

}  // namespace

ControlledRuntime::Choice ControlledRuntime::choose(const proto::RunRequest& request, std::uint32_t step,
                                                    SchedulingOrder& order) {
  const std::size_t index = step - 1;
  if (index < static_cast<std::size_t>(request.prefix_size())) {
    // A label names the message and what its handler chooses (wire/delivery_label.hpp).
    const auto expected = wire::parse_label(request.prefix(static_cast<int>(index)));
    if (expected) {
      for (std::size_t i : enabled_) {
        if (pending_[i]->id == expected->message) return {i, false, false, expected->values};
      }
    }
    // Optimal DPOR: a guard may hold the wakeup sequence's last entry back; the run then goes on
    // as after its prefix. An earlier wakeup entry held back ends the run as a redundant one.
    const auto wakeup_from = static_cast<std::size_t>(request.prefix_size()) - request.wakeup_entries();
    const bool last = index + 1 == static_cast<std::size_t>(request.prefix_size());
    if (request.wakeup_entries() == 0 || index < wakeup_from) return {0, true, false};
    if (!last) return {0, false, true};
  }
  if (sleep_.empty()) return {enabled_[order.choose(candidates_, step)], false, false};
  std::vector<Candidate> awake;
  std::vector<std::size_t> awake_pending;
  for (std::size_t i = 0; i < enabled_.size(); ++i) {
    const std::string& id = pending_[enabled_[i]]->id;
    if (sleep_.asleep(id)) continue;
    awake.push_back(candidates_[i]);
    awake_pending.push_back(enabled_[i]);
  }
  if (awake.empty()) return {0, false, true};
  return {awake_pending[order.choose(awake, step)], false, false};
}

void ControlledRuntime::report(proto::RunResult result) {
  for (const auto& id : dead_letters_) result.add_dead_letters(id);
  result.set_faults(faults_injected_);
  add_final_state(result);
  write_result(std::move(result));
}

void ControlledRuntime::write_result(proto::RunResult result) {
  keep_steps_before(result.steps() + 1);  // a run that ended sooner than the last one
  proto::HookMessage frame;
  *frame.mutable_result() = std::move(result);
  channel_.write(frame);
  channel_.flush();
}

void ControlledRuntime::wake_sleepers_of(const std::string& actor, bool every_lane) {
  static const std::string every(kEveryLane);
  sleep_.wake_messages_of(
      every_lane ? every : actor, lanes_notified(), [&](const std::string& id) -> const std::string* {
        auto it = std::find_if(pending_.begin(), pending_.end(), [&](const auto& e) { return e->id == id; });
        if (it == pending_.end()) return nullptr;
        return quiescent_firing(**it) ? &every : &(*it)->receiver->id;
      });
}

bool ControlledRuntime::quiescent_firing(const Envelope& envelope) const {
  return envelope.quiescent || (timers_ == proto::TIMERS_QUIESCENT && envelope.timer != TimerKind::kNone);
}

std::optional<proto::RunResult> ControlledRuntime::run_steps() {
  const proto::RunRequest& request = *request_;
  SchedulingOrder& order = *order_;
  for (std::uint32_t step = next_step_;; ++step) {
    collect_enabled();
    const auto quiescent = [this](std::size_t i) { return quiescent_firing(*pending_[i]); };
    if (at_quiescence_ && std::all_of(enabled_.begin(), enabled_.end(), quiescent) && at_quiescence_()) {
      finish_requested_destroys();
      collect_enabled();
    }
    const std::uint32_t done = step - 1;
    if (auto hot = past_liveness_bound(step)) return hot;
    if (enabled_.empty()) return quiescent_result(done);
    if (request.step_limit() != 0 && done >= request.step_limit()) {
      proto::RunResult result;
      result.set_status(proto::RUN_STEP_LIMIT);
      result.set_steps(done);
      result.set_detail("step limit of " + std::to_string(request.step_limit()) + " reached with " +
                        std::to_string(enabled_.size()) + " messages still enabled");
      return result;
    }
    const Choice choice = choose(request, step, order);
    if (choice.diverged) {
      auto result = divergence(request, step);
      result.set_steps(done);
      return result;
    }
    if (choice.sleep_blocked) {
      proto::RunResult result;
      result.set_status(proto::RUN_SLEEP_BLOCKED);
      result.set_steps(done);
      const bool held_back = done < static_cast<std::uint32_t>(request.prefix_size());
      result.set_detail(held_back ? "wakeup entry " + request.prefix(static_cast<int>(done)) +
                                        " is held back by its receiver and every other enabled message is "
                                        "asleep after step " +
                                        std::to_string(done)
                                  : "every enabled message is asleep after step " + std::to_string(done));
      return result;
    }
    begin_step(step);
    if (step >= kept_steps_) {
      for (std::size_t i : enabled_) event_->add_enabled(pending_[i]->id);
    }
    const bool delivered_quiescent_firing = quiescent_firing(*pending_[choice.pending_index]);
    prescribed_ = choice.values;
    const proto::StepOutcome outcome = execute(choice.pending_index, step);
    next_step_ = step + 1;
    if (suspend_requested_) {
      suspend_requested_ = false;
      open_step_ = OpenStep{step, delivered_quiescent_firing, outcome};
      return std::nullopt;
    }
    if (auto ended = finish_step(step, delivered_quiescent_firing, outcome)) return ended;
  }
}

std::optional<proto::RunResult> ControlledRuntime::finish_step(std::uint32_t step, bool quiescent_firing_delivered,
                                                               proto::StepOutcome outcome) {
  // The prefix's last step too, when it is no wakeup entry: whether it notifies a monitor was not
  // known when the explorer made the sleep set (it took it not to, and wakes nothing else twice).
  const bool last_of_prefix =
      request_->wakeup_entries() == 0 && step == static_cast<std::uint32_t>(request_->prefix_size());
  if (step > firm_prefix(*request_) || last_of_prefix) {
    wake_sleepers_of(event_->actor(), quiescent_firing_delivered);
  }
  note_failure(outcome, step);
  write_event();
  if (choice_divergence_.empty()) return std::nullopt;
  proto::RunResult result;
  result.set_status(proto::RUN_DIVERGENCE);
  result.set_steps(step);
  result.set_divergence_index(step - 1);
  result.set_divergence_expected(request_->prefix(static_cast<int>(step - 1)));
  result.set_detail(choice_divergence_);
  return result;
}

int ControlledRuntime::run() {
  proto::RunRequest request;
  if (fork_server_ != nullptr) {
    // Everything main did is already recorded in this process's step 0: each child starts from it.
    request = fork_server_->serve();
  } else {
    try {
      request = channel_.read_request();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%s\n", error.what());
      return 3;
    }
  }
  request_ = std::move(request);
  kept_steps_ = channel_.kept_steps().shared_with_last(*request_, channel_.intact_bytes());
  run_pid_ = fork_server_ != nullptr ? fork_server_->run_pid() : ::getpid();
  order_.emplace(*request_);
  sleep_.assign(request_->sleep(), request_->sleep_notifying(), request_->sleep_notifying_lanes());
  delivery_ = request_->delivery();
  random_choices_ = heuristics::is_randomized(request_->heuristic());
  // Its own stream: the schedule's draws stay as they were. Seeded only where it is drawn from
  // (a seeding is 312 words, a microsecond of every systematic run).
  if (random_choices_) choice_random_.seed(request_->seed() ^ 0x63686f6f7365ULL);
  timers_ = request_->timers();
  faults_ = request_->faults();
  liveness_.emplace(request_->liveness_bound());
  monitor_clocks_.clear();
  faults_on_ = faults_.losses() != 0 || faults_.duplicates() != 0 || faults_.partitions() != 0;

  finish_requested_destroys();
  write_event();
  in_run_ = true;
  if (!duplicates_refusal_.empty() && faults_.duplicates() != 0) refuse(duplicates_refusal_);
  next_step_ = 1;
  return proceed();
}

int ControlledRuntime::proceed() {
  auto ended = run_steps();
  return ended ? conclude(std::move(*ended)) : 0;
}

int ControlledRuntime::conclude(proto::RunResult result) {
  report(with_hot_monitors(with_first_failure(std::move(result))));
  in_run_ = false;
  return 0;
}

int ControlledRuntime::resume() {
  const OpenStep open = *open_step_;
  open_step_.reset();
  finish_requested_destroys();
  if (auto ended = finish_step(open.step, open.quiescent_firing_delivered, open.outcome)) {
    return conclude(std::move(*ended));
  }
  return proceed();
}

bool ControlledRuntime::end_run_at_failed_step(proto::StepOutcome outcome, const std::string& detail) {
  if (!in_run_) return false;
  keep_steps_before(event_->step());  // this step's event is written anew, whole or not
  event_->set_outcome(outcome);
  event_->set_detail(wire::valid_utf8(detail));
  note_failure(outcome, event_->step());
  write_event();
  proto::RunResult result;
  result.set_steps(event_->step());
  report(with_first_failure(std::move(result)));
  // exit(), not _exit(): a fork server ends its runs in its exit handlers (fork_server.cpp).
  std::exit(0);
}

}  // namespace exocheck::detail
