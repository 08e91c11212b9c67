// The interpreter's faults (losses, duplicates, partitions, crashes) and monitors, as the hook's
// controlled_faults.cpp and ControlledRuntime have them.

#include <algorithm>
#include <random>
#include <utility>

#include "program_interpreter.hpp"

namespace exocheck::engine::testing::interpreted {

Interpreter::NetworkFault Interpreter::network_fault(const Message& m) {
  if (current_ == &execution_.initial || copying_ || m.sender < 0 || m.sender == m.receiver ||
      m.timer != TimerKind::kNone || m.quiescent || m.monitor_request || m.type == kDownType) {
    return NetworkFault::kNone;
  }
  Actor& from = actors_[m.sender];
  const bool may_lose = from.losses < program_.faults.losses;
  const bool may_duplicate = from.duplicates < program_.faults.duplicates && m.answers.empty();
  if (program_.faults.partitions != 0 && partitioned(m)) return NetworkFault::kLost;
  if (!may_lose && !may_duplicate) return NetworkFault::kNone;
  const std::uint32_t value = fault_choice(1 + (may_lose ? 1 : 0) + (may_duplicate ? 1 : 0));
  if (value == 0) return NetworkFault::kNone;
  if (may_lose && value == 1) {
    ++from.losses;
    return NetworkFault::kLost;
  }
  ++from.duplicates;
  return NetworkFault::kDuplicated;
}

bool Interpreter::partitioned(const Message& m) {
  Actor& from = actors_[m.sender];
  const auto& side = program_.faults.partition_side;
  const auto on_side = [&](int actor) { return std::find(side.begin(), side.end(), actor) != side.end(); };
  if (!side.empty() && on_side(m.sender) == on_side(m.receiver)) return false;
  const int link = side.empty() ? m.receiver + 1 : 0;
  auto cut = std::find(from.cut_links.begin(), from.cut_links.end(), link);
  if (cut != from.cut_links.end()) {
    if (fault_choice(2) == 0) return true;
    from.cut_links.erase(cut);
    return false;
  }
  if (from.partitions >= program_.faults.partitions || fault_choice(2) == 0) return false;
  ++from.partitions;
  from.cut_links.push_back(link);
  return true;
}

void Interpreter::post_copy(const Message& original) {
  Message copy = make_message(original.sender, original.receiver, original.type, original.value);
  copy.carry = original.carry;
  copy.is_call = original.is_call;
  copy.answers = original.answers;
  if (copy.is_call) actors_[original.sender].abandoned.push_back(copy.id);  // as the hook's copy_of
  copying_ = true;
  post(std::move(copy));
  copying_ = false;
}

std::uint32_t Interpreter::fault_choice(std::uint32_t range) {
  const std::size_t made = ranges_.size();
  std::uint32_t value = 0;
  if (made < prescribed_.size()) {
    value = prescribed_[made];
  } else if (random_choices_ && prescribed_.empty()) {
    if (std::uniform_int_distribution<std::uint64_t>(0, 7)(choice_random_) == 0) {
      value = static_cast<std::uint32_t>(std::uniform_int_distribution<std::uint64_t>(1, range - 1)(choice_random_));
    }
  }
  if (value >= range) value = 0;
  ranges_.push_back(range);
  values_.push_back(value);
  return value;
}

void Interpreter::offer_crash(int self) {
  if (actors_[self].crashes >= program_.faults.crashes || fault_choice(2) == 0) return;
  ++actors_[self].crashes;
  const ActorType& type = program_.types[actors_[self].type];
  if (!type.restarts) return destroy(self);
  // As the hook's ControlledRuntime::crash: what the old incarnation asked for goes with it.
  Actor& actor = actors_[self];
  std::string call = std::exchange(actor.awaiting, {});
  std::erase_if(pending_, [&](const Message& m) {
    if (m.receiver != self || (m.timer == TimerKind::kNone && (m.answers.empty() || m.answers != call))) return false;
    if (m.answers == call) call.clear();
    current_->dead_letters.push_back(m.id);
    return true;
  });
  if (!call.empty()) actor.abandoned.push_back(call);
  actor.call_timeout.clear();
  actor.guard_history.clear();
  tell_monitors(self);
  ++actor.incarnation;
  actor.acc = 0;
  actor.count = 0;
  run_actions(self, type.restart, nullptr);
}

void Interpreter::tell_monitors(int self) {
  const auto watchers = std::exchange(actors_[self].monitors, {});
  for (const auto& [watcher, incarnation] : watchers) {
    Message down = make_message(self, watcher, kDownType, 0);
    down.incarnation = incarnation;
    post(std::move(down));
  }
}

void Interpreter::monitor(int self, int target) {
  Message request = make_message(self, target, kMonitorType, 0);
  request.monitor_request = true;
  request.incarnation = actors_[self].incarnation;
  post(std::move(request));
}

void Interpreter::answer_monitor_request(const Message& request) {
  Actor& target = actors_[request.receiver];
  if (!target.destroyed) {
    target.monitors.emplace_back(request.sender, request.incarnation);
    return;
  }
  Message down = make_message(request.receiver, request.sender, kDownType, 0);
  down.incarnation = request.incarnation;
  post(std::move(down));
}

bool Interpreter::notify(int self, const Action& action) {
  // Monitor 0 is one whole; monitor 1 declares two parts (Monitor::in_part), a and b: a
  // notification of `value` % 3 == 1 touches part a only, 2 part b only, 0 the whole monitor.
  static const std::vector<std::string> kLanes[] = {{"M0"}, {"M1", "M1/a", "M1/b"}, {"M1/a"}, {"M1/b"}};
  const int kind = action.slot == 0 ? 0 : 1 + (action.value % 3 == 0 ? 0 : action.value % 3);
  current_->notified = true;
  current_->monitor_lanes.insert(current_->monitor_lanes.end(), kLanes[kind].begin(), kLanes[kind].end());
  // As the hook's clocks: the step comes after each of its lanes' latest step, and so does
  // what it sent (the step's clock is shared with its messages).
  if (step_clock_) {
    auto& clock = const_cast<VectorClock&>(*step_clock_);
    for (const auto& lane : kLanes[kind]) clock.merge(monitor_clocks_[lane]);
    for (const auto& lane : kLanes[kind]) monitor_clocks_[lane] = clock;
    current_->clock.clear();
    for (const auto& [index_, count] : clock.entries()) {
      if (index_ != exocheck::detail::kStepZeroSends) current_->clock.emplace_back(actors_[index_].id, count);
    }
  }
  const auto take = [&](long& state) {
    state = (state * 7 + actors_[self].acc + action.value + 1) % 1000003;
    return state % 7 != action.value;
  };
  if (kind == 0) return take(monitor_states_[0]);
  const bool part_a = kind != 3 ? take(monitor_states_[1]) : true;
  const bool part_b = kind != 2 ? take(monitor_states_[2]) : true;
  return part_a && part_b;
}

bool Interpreter::notifies_on_lanes_of_step(const std::string& id) const {
  const auto& names = spec_.sleep_notifying;
  const auto at = std::find(names.begin(), names.end(), id);
  if (at == names.end()) return false;
  const auto i = static_cast<std::size_t>(at - names.begin());
  if (i >= spec_.sleep_notifying_lanes.size() || spec_.sleep_notifying_lanes[i].empty()) return true;
  const auto& lanes = spec_.sleep_notifying_lanes[i];
  return std::any_of(current_->monitor_lanes.begin(), current_->monitor_lanes.end(), [&](const std::string& lane) {
    return std::find(lanes.begin(), lanes.end(), lane) != lanes.end();
  });
}

}  // namespace exocheck::engine::testing::interpreted
