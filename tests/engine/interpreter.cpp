#include <algorithm>
#include <memory>
#include <utility>

#include "delivery_order.hpp"
#include "exocheck/wire/delivery_label.hpp"
#include "guard_history.hpp"
#include "program_interpreter.hpp"
#include "timer_semantics.hpp"
#include "vector_clock.hpp"

namespace exocheck::engine::testing {
namespace interpreted {

Execution Interpreter::run() {
  current_ = &execution_.initial;
  std::vector<int> roots;
  for (int type : program_.roots) roots.push_back(spawn(-1, type));
  for (const auto& initial : program_.initial) {
    Message m;
    m.id = "env#" + std::to_string(++environment_sent_);
    m.receiver = roots.at(static_cast<std::size_t>(initial.to));
    m.type = initial.type;
    m.value = initial.value;
    if (initial.carry_root >= 0) m.carry = roots.at(static_cast<std::size_t>(initial.carry_root));
    post(std::move(m));
  }
  finish_destroys();
  std::vector<std::string> sleep = spec_.sleep;
  for (std::size_t step = 1;; ++step) {
    const auto enabled = enabled_messages();
    if (enabled.empty()) return finish_quiescent();
    if (step > spec_.step_limit) return finish(Ending::kStepLimit, "step limit");
    std::size_t chosen = 0;
    // As the hook does (controlled_runtime.cpp): a wakeup sequence's last entry held back by a
    // guard lets the run go on as after the prefix; an earlier one ends it.
    auto it = enabled.end();
    prescribed_.clear();
    if (step <= spec_.prefix.size()) {
      // A label names the message and what its handler chooses, as for the hook.
      const auto label = exocheck::wire::parse_label(spec_.prefix[step - 1]);
      if (label) {
        it = std::find_if(enabled.begin(), enabled.end(),
                          [&](std::size_t i) { return pending_[i].id == label->message; });
        if (it != enabled.end()) prescribed_ = label->values;
      }
    }
    const bool soft_last = spec_.wakeup_entries != 0 && step == spec_.prefix.size();
    if (it != enabled.end()) {
      chosen = *it;
    } else if (step <= spec_.prefix.size() && !soft_last) {
      if (step > spec_.prefix.size() - spec_.wakeup_entries) {
        return finish(Ending::kSleepBlocked, "a wakeup entry is held back");
      }
      return finish(Ending::kDivergence, "prefix names " + spec_.prefix[step - 1]);
    } else {
      auto awake = awake_messages(enabled, sleep);
      if (awake.empty()) return finish(Ending::kSleepBlocked, "every enabled message is asleep");
      chosen = choose(awake, step);
    }
    const int receiver = pending_[chosen].receiver;
    execution_.steps.emplace_back();
    current_ = &execution_.steps.back();
    for (std::size_t i : enabled) current_->enabled.push_back(pending_[i].id);
    if (step > spec_.prefix.size() - (spec_.wakeup_entries != 0 ? 1 : 0)) {
      // As the hook's sleep set: a quiescent timer's firing is on every lane (timer_semantics.hpp).
      const bool every_lane = quiescent_firing(pending_[chosen]);
      std::erase_if(sleep, [&](const std::string& s) {
        const Message* m = pending_named(s);
        return every_lane || (m != nullptr && (m->receiver == receiver || quiescent_firing(*m)));
      });
    }
    if (!deliver(chosen) && failure_.empty()) failure_ = "check failed at " + current_->message;
    // As the hook's sleep set: a step that notified a monitor wakes what notifies on its lanes, the
    // prefix's last step too when it is no wakeup entry.
    const bool last_of_prefix = spec_.wakeup_entries == 0 && step == spec_.prefix.size();
    if (current_->notified && (step > spec_.prefix.size() - (spec_.wakeup_entries != 0 ? 1 : 0) || last_of_prefix)) {
      std::erase_if(sleep, [&](const std::string& s) { return notifies_on_lanes_of_step(s); });
    }
    if (aborted_) return finish(Ending::kAssertion, failure_);  // what was enabled is never run
  }
}

const Message* Interpreter::pending_named(const std::string& id) const {
  for (const auto& m : pending_) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

bool Interpreter::quiescent_firing(const Message& m) const {
  return m.quiescent || (spec_.timers == proto::TIMERS_QUIESCENT && m.timer != TimerKind::kNone);
}

std::vector<std::size_t> Interpreter::awake_messages(const std::vector<std::size_t>& enabled,
                                                     const std::vector<std::string>& sleep) const {
  std::vector<std::size_t> awake;
  for (std::size_t i : enabled) {
    if (std::find(sleep.begin(), sleep.end(), pending_[i].id) == sleep.end()) awake.push_back(i);
  }
  return awake;
}

exocheck::detail::proto::RunRequest Interpreter::request_of(const RunSpec& spec) {
  exocheck::detail::proto::RunRequest request;
  request.set_heuristic(static_cast<exocheck::detail::proto::Heuristic>(spec.heuristic));
  for (const auto& actor : spec.ranking) request.add_ranking(actor);
  request.set_seed(spec.seed);
  request.set_pct_depth(spec.pct_depth);
  request.set_pct_steps(spec.pct_steps);
  return request;
}

std::size_t Interpreter::choose(const std::vector<std::size_t>& candidates, std::size_t step) {
  std::vector<exocheck::detail::Candidate> view;
  for (std::size_t i : candidates) {
    const Actor& a = actors_[pending_[i].receiver];
    view.push_back({pending_[i].send_seq, static_cast<std::uint32_t>(pending_[i].receiver), a.creation_seq, &a.id});
  }
  return candidates[order_.choose(view, static_cast<std::uint32_t>(step))];
}

bool Interpreter::is_enabled(const Message& m) const {
  const Actor& a = actors_[m.receiver];
  if (m.monitor_request) return a.destroyed || a.awaiting.empty();
  if (a.destroyed) return false;
  if (!a.awaiting.empty()) return m.answers == a.awaiting;
  return guard_accepts(a.type, a.count, m.type);
}

bool Interpreter::guard_accepts(int actor_type, int count, int message_type) const {
  for (const auto& guard : program_.types[actor_type].guards) {
    if (guard.type == message_type) return count >= guard.min_count && (guard.parity < 0 || count % 2 == guard.parity);
  }
  return true;
}

std::vector<std::size_t> Interpreter::enabled_messages() const {
  std::vector<std::size_t> enabled;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    if (is_enabled(pending_[i])) enabled.push_back(i);
  }
  exocheck::detail::hold_back_by_order(static_cast<exocheck::detail::proto::DeliveryOrder>(spec_.delivery), enabled,
                                       [this](std::size_t i) {
                                         const Message& m = pending_[i];
                                         return exocheck::detail::SendFacts{m.receiver, m.sender, m.send_seq,
                                                                            m.clock.get(), m.timer != TimerKind::kNone};
                                       });
  exocheck::detail::keep_quiescent_deliveries(
      static_cast<exocheck::detail::proto::TimerSemantics>(spec_.timers), enabled,
      [this](std::size_t i) { return quiescent_firing(pending_[i]); },
      [this](std::size_t i) { return pending_[i].due; });
  return enabled;
}

int Interpreter::spawn(int parent, int type) {
  const int index = static_cast<int>(actors_.size());
  Actor actor;
  actor.id = parent < 0 ? std::to_string(roots_spawned_++)
                        : actors_[parent].id + "." + std::to_string(++actors_[parent].children);
  actor.type = type;
  actor.clock = step_clock_;
  actors_.push_back(actor);
  current_->created.push_back(actor.id);
  run_actions(index, program_.types[type].constructor, nullptr);
  actors_[index].creation_seq = ++creation_seq_;
  return index;
}

void Interpreter::post(Message m) {
  m.send_seq = ++send_seq_;
  m.clock = step_clock_;
  m.due = now_ + static_cast<std::uint64_t>(m.delay);
  current_->sent.push_back({m.id, actors_[m.receiver].id, m.timer != TimerKind::kNone, m.quiescent});
  // The network's faults before anything of the receiver's is read, as in the hook.
  const NetworkFault fault = network_fault(m);
  if (fault == NetworkFault::kLost) {
    current_->dead_letters.push_back(m.id);
    return;
  }
  const Message original = fault == NetworkFault::kDuplicated ? m : Message{};
  enqueue(std::move(m));
  if (fault == NetworkFault::kDuplicated) post_copy(original);
}

void Interpreter::enqueue(Message m) {
  if (actors_[m.receiver].destroyed && !m.monitor_request) {
    current_->dead_letters.push_back(m.id);
    return;
  }
  auto& abandoned = actors_[m.receiver].abandoned;
  if (const auto call = std::find(abandoned.begin(), abandoned.end(), m.answers);
      !m.answers.empty() && call != abandoned.end()) {
    abandoned.erase(call);
    current_->dead_letters.push_back(m.id);  // withdrawn messages are lost in their step, as in the hook
    return;
  }
  if (program_.guard_views) {
    const Actor& receiver = actors_[m.receiver];
    for (const auto& [step, count] : receiver.guard_history) {
      if (!guard_accepts(receiver.type, count, m.type)) current_->sent.back().rejected_at.push_back(step);
    }
  }
  pending_.push_back(std::move(m));
}

void Interpreter::arm(int self, TimerKind kind, int type, long value, int delay, std::string answers, bool quiescent) {
  Message m = make_message(self, self, type, value);
  m.timer = kind;
  m.quiescent = quiescent;
  m.delay = delay;
  m.series = m.id;
  m.answers = std::move(answers);
  post(std::move(m));
}

void Interpreter::cancel(int self, const std::string& series) {
  withdraw([&](const Message& m) { return m.receiver == self && m.timer != TimerKind::kNone && m.series == series; });
}

int Interpreter::resolve(int self, Target target, int slot, const Message* handled) const {
  switch (target) {
    case Target::kSelf:
      return self;
    case Target::kSender:
      return handled != nullptr ? handled->sender : -1;
    case Target::kSlot:
      return actors_[self].slots[slot];
    case Target::kCarried:
      return handled != nullptr ? handled->carry : -1;
    case Target::kNone:
      return -1;
  }
  return -1;
}

bool Interpreter::run_actions(int self, const Handler& handler, const Message* handled) {
  for (const auto& action : handler) {
    if (action.when_count >= 0 && actors_[self].count != action.when_count) continue;
    if (!run_action(self, action, handled)) return false;
  }
  return true;
}

bool Interpreter::run_action(int self, const Action& action, const Message* handled) {
  using Op = Action::Op;
  switch (action.op) {
    case Op::kSpawn: {
      const int child = spawn(self, action.type);
      actors_[self].slots[action.slot] = child;
      return true;
    }
    case Op::kStore:
      actors_[self].slots[action.slot] = handled != nullptr ? handled->carry : -1;
      return true;
    case Op::kSend:
    case Op::kCall:
      send(self, action, handled);
      return true;
    case Op::kReply: {
      if (handled == nullptr || !handled->is_call) return true;  // only calls are answered
      Message m = make_message(self, handled->sender, kReplyType, actors_[self].acc);
      m.answers = handled->id;
      post(std::move(m));
      return true;
    }
    case Op::kDestroy:
      actors_[self].destroy_requested = true;
      return true;
    case Op::kCheck:
      return actors_[self].acc % 3 != action.value;
    case Op::kAbort:
      aborted_ = actors_[self].acc % 3 == action.value;
      return !aborted_;
    case Op::kAfter:
    case Op::kEvery: {
      const auto kind = action.op == Op::kAfter ? TimerKind::kOnce : TimerKind::kPeriodic;
      arm(self, kind, action.type, actors_[self].acc + action.value, action.delay, {}, action.quiescent);
      actors_[self].timers[action.slot] = pending_.back().id;
      return true;
    }
    case Op::kCancel:
      if (!actors_[self].timers[action.slot].empty()) cancel(self, actors_[self].timers[action.slot]);
      return true;
    case Op::kChoose:
      actors_[self].acc = (actors_[self].acc * 5 + choose(static_cast<std::uint32_t>(action.value)) + 1) % 1000003;
      return true;
    case Op::kNotify:
      return notify(self, action);
    case Op::kMonitor:
      if (const int target = resolve(self, action.to, action.slot, handled); target >= 0) monitor(self, target);
      return true;
  }
  return true;
}

Message Interpreter::make_message(int self, int to, int type, long value) {
  Message m;
  m.id = actors_[self].id + "#" + std::to_string(++actors_[self].sent);
  m.sender = self;
  m.receiver = to;
  m.type = type;
  m.value = value;
  return m;
}

void Interpreter::send(int self, const Action& action, const Message* handled) {
  const int to = resolve(self, action.to, action.slot, handled);
  if (to < 0) return;  // nobody to send to (a data program may name an empty slot)
  Message m = make_message(self, to, action.type, actors_[self].acc + action.value);
  m.carry = resolve(self, action.carry, action.carry_slot, handled);
  m.is_call = action.op == Action::Op::kCall;
  const std::string call = m.id;
  post(std::move(m));
  if (action.op == Action::Op::kCall) {
    actors_[self].awaiting = call;
    actors_[self].await_then = action.then;
    if (action.timeout >= 0) {
      actors_[self].await_timeout = action.timeout;
      arm(self, TimerKind::kCallTimeout, kTimeoutType, 0, action.delay, call);
      actors_[self].call_timeout = pending_.back().id;
    }
  }
}

std::uint32_t Interpreter::choose(std::uint32_t range) {
  const std::size_t made = ranges_.size();
  std::uint32_t value = 0;
  if (made < prescribed_.size()) {
    value = prescribed_[made];
  } else if (random_choices_) {
    value = static_cast<std::uint32_t>(std::uniform_int_distribution<std::uint64_t>(0, range - 1)(choice_random_));
  }
  if (value >= range) value = 0;
  ranges_.push_back(range);
  values_.push_back(value);
  return value;
}

void Interpreter::record_choices() {
  if (values_.empty()) return;
  if (std::any_of(values_.begin(), values_.end(), [](std::uint32_t v) { return v != 0; })) {
    current_->label = exocheck::wire::delivery_label(current_->message, values_);
  }
  current_->alternatives = exocheck::wire::alternative_labels(current_->message, ranges_, values_);
}

bool Interpreter::deliver(std::size_t index) {
  ranges_.clear();
  values_.clear();
  Message m = std::move(pending_[index]);
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(index));
  Actor& actor = actors_[m.receiver];
  auto clock = std::make_shared<VectorClock>(actor.clock ? *actor.clock : VectorClock{});
  if (m.clock) {
    clock->merge(*m.clock);
  } else {
    clock->raise(exocheck::detail::kStepZeroSends, static_cast<std::uint32_t>(m.send_seq));
  }
  clock->tick(static_cast<std::uint32_t>(m.receiver));
  step_clock_ = clock;
  actor.clock = clock;
  current_->actor = actor.id;
  current_->message = m.id;
  current_->timer = m.timer != TimerKind::kNone;
  current_->quiescent = m.quiescent;
  if (m.timer != TimerKind::kNone) now_ = std::max(now_, m.due);
  for (const auto& [index_, count] : clock->entries()) {
    if (index_ != exocheck::detail::kStepZeroSends) current_->clock.emplace_back(actors_[index_].id, count);
  }
  if (m.monitor_request) {
    answer_monitor_request(m);
    return true;
  }

  if (actor.awaiting.empty()) {
    if (actor.guard_history.size() == exocheck::detail::kGuardHistorySteps) actor.guard_history.pop_front();
    actor.guard_history.emplace_back(static_cast<std::uint32_t>(execution_.steps.size()), actor.count);
  }
  const ActorType& type = program_.types[actor.type];
  const Handler* handler = nullptr;
  // A Down an earlier incarnation asked for is not this one's: nothing runs (actor.cpp's dispatch).
  const bool stale = m.type == kDownType && m.incarnation != actor.incarnation;
  if (!stale) {
    actor.count += 1;
    actor.acc = (actor.acc * 7 + m.value + 1) % 1000003;
  }
  if (!stale && !actor.awaiting.empty() && m.answers == actor.awaiting) {
    const std::string call = std::exchange(actor.awaiting, {});
    const std::string call_timeout = std::exchange(actor.call_timeout, {});
    current_->reply = call_timeout.empty();  // a reply and a timeout race: neither is a reply alone
    if (m.timer == TimerKind::kCallTimeout) {
      const int receiver = m.receiver;
      if (!withdraw([&](const Message& r) {
            return r.receiver == receiver && r.timer == TimerKind::kNone && r.answers == call;
          })) {
        actors_[receiver].abandoned.push_back(call);
      }
      handler = &type.continuations[static_cast<std::size_t>(actors_[receiver].await_timeout)];
    } else {
      if (!call_timeout.empty()) cancel(m.receiver, call_timeout);
      handler = &type.continuations[static_cast<std::size_t>(actor.await_then)];
    }
  } else if (!stale && m.timer != TimerKind::kCallTimeout) {
    if (m.timer == TimerKind::kPeriodic) {  // armed again before the handler runs, as in the hook
      Message next = make_message(m.receiver, m.receiver, m.type, m.value);
      next.timer = TimerKind::kPeriodic;
      next.series = m.series;
      next.delay = m.delay;
      post(std::move(next));
    }
    for (const auto& [t, h] : type.handlers) {
      if (t == m.type) handler = &h;
    }
  }
  const bool ok = handler == nullptr || run_actions(m.receiver, *handler, &m);
  current_->failed = !ok;
  if (!ok || actors_[m.receiver].destroy_requested) {
    destroy(m.receiver);
  } else if (program_.faults.crashes != 0) {
    offer_crash(m.receiver);
  }
  record_choices();
  return ok;
}

void Interpreter::destroy(int index) {
  Actor& actor = actors_[index];
  actor.destroy_requested = false;
  actor.destroyed = true;
  current_->destroyed = true;
  tell_monitors(index);
  std::erase_if(pending_, [&](const Message& m) {
    if (m.receiver != index || m.monitor_request) return false;
    current_->dead_letters.push_back(m.id);
    return true;
  });
}

void Interpreter::finish_destroys() {
  for (std::size_t i = 0; i < actors_.size(); ++i) {
    if (actors_[i].destroy_requested) destroy(static_cast<int>(i));
  }
  current_->destroyed = false;
}

Execution Interpreter::finish(Ending ending, std::string detail) {
  execution_.ending = ending;
  execution_.detail = std::move(detail);
  for (const auto& actor : actors_) {
    execution_.final_state.push_back(actor.id + ": acc=" + std::to_string(actor.acc) +
                                     " count=" + std::to_string(actor.count) + (actor.destroyed ? " destroyed" : ""));
  }
  for (std::size_t i = 0; i < monitor_states_.size(); ++i) {
    if (monitor_states_[i] != 0)
      execution_.final_state.push_back("monitor " + std::to_string(i) + ": " + std::to_string(monitor_states_[i]));
  }
  std::sort(execution_.final_state.begin(), execution_.final_state.end());
  return std::move(execution_);
}

Execution Interpreter::finish_quiescent() {
  const bool waiting =
      std::any_of(actors_.begin(), actors_.end(), [](const Actor& a) { return !a.destroyed && !a.awaiting.empty(); });
  if (!failure_.empty()) return finish(Ending::kAssertion, failure_);
  return finish(waiting || !pending_.empty() ? Ending::kDeadlock : Ending::kCompleted, "");
}

}  // namespace interpreted

Execution run_program(const Program& program, const RunSpec& spec) {
  return interpreted::Interpreter(program, spec).run();
}

}  // namespace exocheck::engine::testing
