#include "trace_view.hpp"

#include <algorithm>
#include <unordered_set>

namespace exocheck::engine {

namespace {

ViewStep intern_step(const Step& step, Names& names, std::vector<std::pair<Key, Key>>& receivers) {
  ViewStep view;
  if (!step.actor.empty()) view.actor = names.intern(step.actor);
  if (!step.message.empty()) view.message = names.intern(step.message);
  view.reply = step.reply;
  for (const auto& sent : step.sent) {
    const Key id = names.intern(sent.id);
    view.sent.push_back(id);
    receivers.emplace_back(id, names.intern(sent.receiver));
  }
  for (const auto& id : step.enabled) view.enabled.push_back(names.intern(id));
  for (const auto& id : step.dead_letters) view.dead_letters.push_back(names.intern(id));
  for (const auto& [actor, count] : step.clock) view.clock.emplace_back(names.intern(actor), count);
  std::sort(view.clock.begin(), view.clock.end());
  return view;
}

}  // namespace

TraceView::TraceView(const Execution& execution, Names& names) {
  std::vector<std::pair<Key, Key>> receivers;
  steps_.reserve(execution.steps.size() + 1);
  steps_.push_back(intern_step(execution.initial, names, receivers));
  for (const auto& step : execution.steps) steps_.push_back(intern_step(step, names, receivers));
  send_step_.assign(names.size(), 0);
  receivers_.assign(names.size(), kNoKey);
  coenabled_steps_of_actor_.resize(names.size());
  for (const auto& [message, receiver] : receivers) receivers_[message] = receiver;
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    for (Key m : steps_[k].sent) send_step_[m] = k;
    if (k > 0 && !steps_[k].reply) coenabled_steps_of_actor_[steps_[k].actor].push_back(k);
  }
}

std::size_t TraceView::send_step(Key m) const {
  return m < send_step_.size() ? send_step_[m] : 0;
}

std::uint32_t TraceView::clock_entry(std::size_t step, Key actor) const {
  const auto& clock = steps_[step].clock;
  auto it = std::lower_bound(clock.begin(), clock.end(), std::pair<Key, std::uint32_t>{actor, 0});
  return it != clock.end() && it->first == actor ? it->second : 0;
}

bool TraceView::happens_before(std::size_t i, std::size_t j) const {
  if (i == 0 || j == 0) return false;  // main's step is concurrent with everything
  if (i == j) return true;
  if (i > j) return false;
  const Key actor = steps_[i].actor;
  return clock_entry(i, actor) <= clock_entry(j, actor);
}

bool TraceView::happens_before_message(std::size_t i, Key m) const {
  const std::size_t sender = send_step(m);
  return sender != 0 && happens_before(i, sender);
}

std::size_t TraceView::latest_coenabled_step_of(Key actor, std::size_t limit) const {
  if (actor >= coenabled_steps_of_actor_.size()) return 0;
  const auto& steps = coenabled_steps_of_actor_[actor];
  auto after = std::upper_bound(steps.begin(), steps.end(), limit);
  return after == steps.begin() ? 0 : *(after - 1);
}

std::vector<Key> TraceView::pending_at_end() const {
  std::unordered_set<Key> gone;
  for (std::size_t k = 1; k < steps_.size(); ++k) gone.insert(steps_[k].message);
  for (const auto& step : steps_) gone.insert(step.dead_letters.begin(), step.dead_letters.end());
  std::vector<Key> pending;
  for (const auto& step : steps_) {
    for (Key m : step.sent) {
      if (!gone.count(m)) pending.push_back(m);
    }
  }
  return pending;
}

}  // namespace exocheck::engine
