#include "trace_view.hpp"

#include <algorithm>
#include <cstring>

namespace exocheck::engine {

namespace {

/// The monitors' lanes' names begin with "!", which is in no actor's id. A notification that names
/// no lane is on one lane of all monitors, and may notify any; lanes past MonitorLanes::kShared
/// share one.
constexpr const char* kMonitorLanePrefix = "!";
constexpr const char* kEveryMonitorLane = "!*";
constexpr const char* kSharedMonitorLane = "!...";

void intern_monitor_lanes(const Step& step, Names& names, ViewStep& view) {
  if (!step.notified) return;
  const auto number = [&](Key lane) {
    return names.monitor_lane_number(lane, MonitorLanes::kShared, kSharedMonitorLane);
  };
  if (step.monitor_lanes.empty()) {
    number(names.intern(kEveryMonitorLane));
    view.notifies = MonitorLanes::any();
    return;
  }
  std::string name = kMonitorLanePrefix;
  for (const auto& lane : step.monitor_lanes) {
    name.resize(1);
    name += lane;
    view.notifies = view.notifies | MonitorLanes::lane(number(names.intern(name)));
  }
}

/// One delivery in a class key.
struct LaneDelivery {
  Key actor;
  Key message;
};
static_assert(sizeof(LaneDelivery) == 2 * sizeof(Key), "class keys are copied as bytes");

/// `timers_on_every_lane`: a timer's firing, and the receiver of a timer armed, are on every lane,
/// as a message sent quiescent always is.
ViewStep intern_step(const Step& step, Names& names, bool timers_on_every_lane) {
  ViewStep view;
  if (!step.actor.empty()) view.actor = names.intern(step.actor);
  if (!step.message.empty()) view.message = names.intern(step.message);
  view.label = step.label.empty() ? view.message : names.intern(step.label);
  view.reply = step.reply;
  view.failed = step.failed;
  view.timer = step.timer;
  view.every_lane = step.quiescent || (timers_on_every_lane && step.timer);
  view.notified = step.notified;
  intern_monitor_lanes(step, names, view);
  // Exact sizes: one allocation per list (they are short, and growing them was most of the cost).
  view.sent.reserve(step.sent.size());
  view.sent_to.reserve(step.sent.size());
  view.enabled.reserve(step.enabled.size());
  view.dead_letters.reserve(step.dead_letters.size());
  view.clock.reserve(step.clock.size());
  for (const auto& sent : step.sent) {
    const Key id = names.intern(sent.id);
    view.sent.push_back(id);
    const bool every_lane = sent.quiescent || (timers_on_every_lane && sent.timer);
    view.sent_to.push_back(every_lane ? dependency::kEveryLane : names.intern(sent.receiver));
  }
  for (std::size_t i = 0; i < step.sent.size(); ++i) {
    for (std::uint32_t k : step.sent[i].rejected_at) view.rejections.emplace_back(view.sent[i], k);
    for (const auto& [thread, position] : step.sent[i].start_clock) {
      view.starts.push_back({static_cast<std::uint32_t>(i), names.intern(thread), position});
    }
  }
  for (const auto& [thread, position] : step.start_clock) {
    view.starts.push_back({StartSeen::kTheStep, names.intern(thread), position});
  }
  for (const auto& id : step.enabled) view.enabled.push_back(names.intern(id));
  for (const auto& id : step.dead_letters) view.dead_letters.push_back(names.intern(id));
  for (const auto& [actor, count] : step.clock) view.clock.emplace_back(names.intern(actor), count);
  std::sort(view.clock.begin(), view.clock.end());
  return view;
}

}  // namespace

TraceView::TraceView(const Execution& execution, Names& names, std::span<const ViewStep* const> prefix) {
  assign(execution, names, prefix);
}

void TraceView::assign(const Execution& execution, Names& names, std::span<const ViewStep* const> prefix) {
  const bool whole = execution.first_step == 0;
  if (!whole && prefix.size() != execution.first_step) {
    throw std::invalid_argument("an execution from step " + std::to_string(execution.first_step) + " needs " +
                                std::to_string(execution.first_step) + " steps before it, not " +
                                std::to_string(prefix.size()));
  }
  names_ = &names;
  ended_in_failure_ = execution.ending == Ending::kAssertion || execution.ending == Ending::kException ||
                      execution.ending == Ending::kCrash;
  step_zero_senders_known_ = false;
  own_.clear();
  own_.reserve(execution.steps.size() + 1);
  if (whole) own_.push_back(intern_step(execution.initial, names, timers_on_every_lane_));
  for (const auto& step : execution.steps) own_.push_back(intern_step(step, names, timers_on_every_lane_));
  // Cleared, not destroyed, as the lanes' lists below.
  for (auto& alternatives : own_alternatives_) alternatives.clear();
  if (own_alternatives_.size() < own_.size()) own_alternatives_.resize(own_.size());
  for (std::size_t i = 0; i < execution.steps.size(); ++i) {
    for (const auto& label : execution.steps[i].alternatives) {
      own_alternatives_[i + (whole ? 1 : 0)].push_back(names.intern(label));
    }
  }
  steps_.clear();
  steps_.reserve(prefix.size() + own_.size());
  if (!whole) steps_.assign(prefix.begin(), prefix.end());
  for (const auto& step : own_) steps_.push_back(&step);

  // Interned again for each execution: a view may serve more than one Names (canonical_form.cpp).
  const bool notified = std::any_of(steps_.begin(), steps_.end(), [](const ViewStep* step) { return step->notified; });
  if (notified) names.note_notifications();
  notifying_steps_.clear();
  send_step_.assign(names.size(), 0);
  receivers_.assign(names.size(), kNoKey);
  // Cleared, not destroyed: each lane's list keeps its memory for the next execution.
  for (auto& steps : coenabled_steps_of_lane_) steps.clear();
  if (coenabled_steps_of_lane_.size() < names.size()) coenabled_steps_of_lane_.resize(names.size());
  for (const Key lane : lanes_) steps_of_lane_[lane].clear();
  lanes_.clear();
  if (steps_of_lane_.size() < names.size()) steps_of_lane_.resize(names.size());
  coenabled_steps_.clear();
  last_every_lane_.clear();
  // Every-lane bookkeeping only where a step may be on every lane: most executions have none.
  const bool every_lane = timers_on_every_lane_ || std::any_of(steps_.begin(), steps_.end(),
                                                               [](const ViewStep* step) { return step->every_lane; });
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    const ViewStep& step = *steps_[k];
    for (std::size_t i = 0; i < step.sent.size(); ++i) {
      send_step_[step.sent[i]] = k;
      receivers_[step.sent[i]] = step.sent_to[i];
    }
    if (k > 0) {
      if (steps_of_lane_[step.lane()].empty()) lanes_.push_back(step.lane());
      steps_of_lane_[step.lane()].push_back(k);
      if (step.notified) notifying_steps_.push_back(k);
      for_each_monitor_lane(k, [&](Key lane) {
        if (steps_of_lane_[lane].empty()) lanes_.push_back(lane);
        steps_of_lane_[lane].push_back(k);
      });
    }
    if (k > 0 && !step.reply) {
      coenabled_steps_of_lane_[step.lane()].push_back(k);
      if (every_lane) coenabled_steps_.push_back(k);
    }
    if (every_lane) {
      last_every_lane_.push_back(step.every_lane ? k : (k == 0 ? 0 : last_every_lane_.back()));
    }
  }
}

std::size_t TraceView::send_step(Key m) const {
  return m < send_step_.size() ? send_step_[m] : 0;
}

std::span<const Key> TraceView::alternatives(std::size_t k) const {
  const std::size_t borrowed = steps_.size() - own_.size();
  if (k < borrowed) return {};
  return own_alternatives_[k - borrowed];
}

Key TraceView::sender_of(Key m) const {
  const std::size_t sent_by = send_step(m);
  if (sent_by != 0) return steps_[sent_by]->actor;
  // Asked only under a delivery order, so that other explorations pay nothing for it.
  const ViewStep& zero = *steps_[0];
  if (!step_zero_senders_known_) {
    step_zero_senders_.clear();
    for (Key sent : zero.sent) {
      const std::string id = names_->name(sent);  // a copy: interning may move the names
      step_zero_senders_.push_back(names_->intern(std::string_view(id).substr(0, id.rfind('#'))));
    }
    step_zero_senders_known_ = true;
  }
  const auto at = std::find(zero.sent.begin(), zero.sent.end(), m);
  return at == zero.sent.end() ? kNoKey : step_zero_senders_[static_cast<std::size_t>(at - zero.sent.begin())];
}

std::optional<bool> TraceView::start_send_before(Key earlier, Key later, std::size_t later_step) const {
  const ViewStep& zero = *steps_[0];
  if (zero.starts.empty()) return std::nullopt;
  const auto at = std::find(zero.sent.begin(), zero.sent.end(), earlier);
  if (at == zero.sent.end()) return false;
  const auto position = static_cast<std::uint32_t>(at - zero.sent.begin()) + 1;
  const Key thread = sender_of(earlier);
  std::uint32_t send = StartSeen::kTheStep;
  if (later_step == 0) {
    const auto found = std::find(zero.sent.begin(), zero.sent.end(), later);
    if (found == zero.sent.end()) return false;
    send = static_cast<std::uint32_t>(found - zero.sent.begin());
  }
  for (const StartSeen& seen : steps_[later_step]->starts) {
    if (seen.send == send && seen.thread == thread) return seen.position >= position;
  }
  return false;
}

bool TraceView::sent_first_in_step(std::size_t step, Key earlier, Key later) const {
  for (Key sent : steps_[step]->sent) {
    if (sent == later) return false;
    if (sent == earlier) return true;
  }
  return false;
}

std::uint32_t TraceView::clock_entry(std::size_t step, Key actor) const {
  const auto& clock = steps_[step]->clock;
  auto it = std::lower_bound(clock.begin(), clock.end(), std::pair<Key, std::uint32_t>{actor, 0});
  return it != clock.end() && it->first == actor ? it->second : 0;
}

bool TraceView::happens_before(std::size_t i, std::size_t j) const {
  if (i == 0 || j == 0) return false;  // main's step is concurrent with everything
  if (i == j) return true;
  if (i > j) return false;
  // A step on every lane between them (either of them included) orders them; the hook's clocks
  // know only messages and actors.
  if (!last_every_lane_.empty() && last_every_lane_[j] >= i) return true;
  const Key actor = steps_[i]->actor;
  return clock_entry(i, actor) <= clock_entry(j, actor);
}

bool TraceView::rejected_before(std::size_t i, Key m) const {
  const auto& rejections = steps_[send_step(m)]->rejections;
  const std::pair<Key, std::uint32_t> wanted{m, static_cast<std::uint32_t>(i)};
  return std::find(rejections.begin(), rejections.end(), wanted) != rejections.end();
}

bool TraceView::happens_before_message(std::size_t i, Key m) const {
  const std::size_t sender = send_step(m);
  return sender != 0 && happens_before(i, sender);
}

namespace {

std::size_t latest_at_most(const std::vector<std::size_t>& steps, std::size_t limit) {
  auto after = std::upper_bound(steps.begin(), steps.end(), limit);
  return after == steps.begin() ? 0 : *(after - 1);
}

}  // namespace

std::size_t TraceView::latest_dependent_step(Key receiver, std::size_t limit) const {
  const Key lane = dependency::lane(receiver);
  if (lane == dependency::kEveryLane) return latest_at_most(coenabled_steps_, limit);
  if (lane >= coenabled_steps_of_lane_.size()) return 0;
  const std::size_t on_lane = latest_at_most(coenabled_steps_of_lane_[lane], limit);
  return std::max(on_lane, latest_at_most(coenabled_steps_of_lane_[dependency::kEveryLane], limit));
}

std::size_t TraceView::first_dependent_step_after(Key lane, std::size_t k, MonitorLanes notifies) const {
  const auto first_after = [k](const std::vector<std::size_t>& steps) {
    const auto after = std::upper_bound(steps.begin(), steps.end(), k);
    return after == steps.end() ? std::size_t{0} : *after;
  };
  const auto earlier = [](std::size_t a, std::size_t b) { return a == 0 || b == 0 ? std::max(a, b) : std::min(a, b); };
  if (lane == dependency::kEveryLane) return k + 1 < steps_.size() ? k + 1 : 0;
  const std::size_t on_every_lane = first_after(steps_of_lane_[dependency::kEveryLane]);
  const std::size_t on_lane = lane < steps_of_lane_.size() ? first_after(steps_of_lane_[lane]) : 0;
  // Each of its monitors' lanes by binary search, as its own lane: a scan of the notifying steps
  // would make a long run's class representatives quadratic.
  std::size_t on_monitors = 0;
  if (notifies == MonitorLanes::any()) {
    on_monitors = first_after(notifying_steps_);
  } else if (notifies) {
    const auto on = [&](Key monitor_lane) {
      if (monitor_lane < steps_of_lane_.size())
        on_monitors = earlier(on_monitors, first_after(steps_of_lane_[monitor_lane]));
    };
    const auto& numbered = names_->monitor_lanes();
    for (std::uint32_t n = 0; n < numbered.size(); ++n) {
      if (notifies.on(n)) on(numbered[n]);
    }
    if (notifies.on(MonitorLanes::kShared)) on(names_->shared_monitor_lane());
  }
  return earlier(earlier(on_lane, on_every_lane), on_monitors);
}

std::size_t TraceView::latest_step_on_lane(Key lane, std::size_t limit) const {
  return lane < steps_of_lane_.size() ? latest_at_most(steps_of_lane_[lane], limit) : 0;
}

std::size_t TraceView::first_step_not_after(std::size_t i, std::size_t from, std::size_t to) const {
  std::size_t first = 0;
  for (const Key lane : lanes_) {
    const auto& steps = steps_of_lane_[lane];
    const auto at = std::lower_bound(steps.begin(), steps.end(), from);
    if (at == steps.end() || *at > to || (first != 0 && *at >= first)) continue;
    if (!happens_before(i, *at)) first = *at;
  }
  return first;
}

void TraceView::move_step_into(std::size_t k, ViewStep& home) {
  const std::size_t borrowed = steps_.size() - own_.size();
  if (k >= borrowed) {
    home = std::move(own_[k - borrowed]);
  } else {
    home = *steps_[k];
  }
  steps_[k] = &home;
}

std::vector<Key> TraceView::pending_at_end() const {
  std::vector<bool> gone(send_step_.size(), false);  // indexed by key, as send_step_
  auto mark = [&](Key m) {
    if (m < gone.size()) gone[m] = true;
  };
  for (std::size_t k = 1; k < steps_.size(); ++k) mark(steps_[k]->message);
  for (const ViewStep* step : steps_) std::for_each(step->dead_letters.begin(), step->dead_letters.end(), mark);
  std::vector<Key> pending;
  for (const ViewStep* step : steps_) {
    for (Key m : step->sent) {
      if (!gone[m]) pending.push_back(m);
    }
  }
  return pending;
}

std::string TraceView::canonical_form(const Names& names) const {
  return canonical_form_of(class_key(), names);
}

// A step on every lane is dependent with every other: the execution is its segments between such
// steps, each one's class being its lanes' sequences, and those steps themselves in between.
std::string TraceView::class_key() const {
  std::string key;
  class_key(key);
  return key;
}

// Counted for every path, so nothing is allocated once the thread's vector has grown: a short
// segment is sorted in place (insertion keeps it stable), where std::stable_sort takes a buffer.
void TraceView::class_key(std::string& key) const {
  constexpr std::size_t kSortedInPlace = 32;
  thread_local std::vector<LaneDelivery> deliveries;
  deliveries.clear();
  std::size_t segment = 0;
  const auto by_actor = [](const LaneDelivery& a, const LaneDelivery& b) { return a.actor < b.actor; };
  const auto close_segment = [&] {
    const auto first = deliveries.begin() + static_cast<std::ptrdiff_t>(segment);
    if (deliveries.size() - segment > kSortedInPlace) {
      std::stable_sort(first, deliveries.end(), by_actor);
      return;
    }
    for (auto it = first; it != deliveries.end(); ++it) {
      for (auto at = it; at != first && by_actor(*at, *(at - 1)); --at) std::iter_swap(at, at - 1);
    }
  };
  for (std::size_t k = 1; k < steps_.size(); ++k) {
    if (!steps_[k]->every_lane) {
      deliveries.push_back({steps_[k]->lane(), steps_[k]->label});
      // The monitors' lanes' sequences too: a class is each lane's (dependency.md).
      for_each_monitor_lane(k, [&](Key lane) { deliveries.push_back({lane, steps_[k]->label}); });
      continue;
    }
    close_segment();
    deliveries.push_back({dependency::kEveryLane, steps_[k]->label});
    segment = deliveries.size();
  }
  close_segment();
  key.resize(deliveries.size() * sizeof(LaneDelivery));
  if (!deliveries.empty()) std::memcpy(key.data(), deliveries.data(), key.size());
}

std::string TraceView::canonical_form_of(std::string_view key, const Names& names) {
  std::string form;
  canonical_form_of(key, names, form);
  return form;
}

// Every path of an exploration comes here to be counted: the vectors are the thread's, kept from
// one call to the next, so that a call allocates nothing once they have grown.
void TraceView::canonical_form_of(std::string_view key, const Names& names, std::string& form) {
  thread_local std::vector<LaneDelivery> deliveries;
  thread_local std::vector<std::pair<std::size_t, std::size_t>> actors;
  deliveries.resize(key.size() / sizeof(LaneDelivery));
  if (!deliveries.empty()) std::memcpy(deliveries.data(), key.data(), deliveries.size() * sizeof(LaneDelivery));
  form.clear();
  // One segment [first, last) at a time: each actor's deliveries, ordered by the actor's name.
  const auto add_segment = [&](std::size_t first, std::size_t last) {
    actors.clear();
    for (std::size_t i = first; i < last; ++i) {
      if (i == first || deliveries[i - 1].actor != deliveries[i].actor) actors.emplace_back(i, i);
      actors.back().second = i + 1;
    }
    std::sort(actors.begin(), actors.end(), [&](const auto& a, const auto& b) {
      return names.name(deliveries[a.first].actor) < names.name(deliveries[b.first].actor);
    });
    for (const auto& [begin, end] : actors) {
      form += names.name(deliveries[begin].actor);
      form += ':';
      for (std::size_t i = begin; i < end; ++i) {
        if (i > begin) form += ',';
        form += names.name(deliveries[i].message);
      }
      form += ';';
    }
  };
  std::size_t first = 0;
  for (std::size_t i = 0; i < deliveries.size(); ++i) {
    if (deliveries[i].actor != dependency::kEveryLane) continue;
    add_segment(first, i);
    form += names.name(dependency::kEveryLane);
    form += ':';
    form += names.name(deliveries[i].message);
    form += ';';
    first = i + 1;
  }
  add_segment(first, deliveries.size());
}

}  // namespace exocheck::engine
