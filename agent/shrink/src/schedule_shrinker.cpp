#include "exocheck/agent/schedule_shrinker.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "exocheck/wire/delivery_label.hpp"

namespace exocheck::agent {

Schedule schedule_of_trace(const proto::TraceFile& trace) {
  Schedule schedule;
  for (const auto& event : trace.events()) {
    if (event.step() > 0 && !event.message().empty()) schedule.push_back(wire::label_of(event));
  }
  return schedule;
}

std::optional<std::uint32_t> failed_step(const proto::TraceFile& trace) {
  for (const auto& event : trace.events()) {
    if (event.outcome() != proto::STEP_OK) return event.step();
  }
  return std::nullopt;
}

Schedule causal_past(const proto::TraceFile& trace, std::uint32_t step) {
  // Where each message was sent, each actor created, and each actor's steps: the edges backwards.
  std::map<std::string, std::uint32_t> sent_at, created_at;
  std::map<std::string, std::vector<std::uint32_t>> steps_of;
  for (const auto& event : trace.events()) {
    for (const auto& sent : event.sent()) sent_at.emplace(sent.id(), event.step());
    for (const auto& created : event.created()) created_at.emplace(created, event.step());
    if (event.step() > 0) steps_of[event.actor()].push_back(event.step());
  }
  std::set<std::uint32_t> needed;
  std::vector<std::uint32_t> work{step};
  while (!work.empty()) {
    const std::uint32_t at = work.back();
    work.pop_back();
    // Step 0 is main's: it happens in every run.
    if (at == 0 || !needed.insert(at).second) continue;
    const auto& event = trace.events(static_cast<int>(at));
    for (std::uint32_t earlier : steps_of[event.actor()]) {
      if (earlier < at) work.push_back(earlier);
    }
    if (auto sent = sent_at.find(event.message()); sent != sent_at.end()) work.push_back(sent->second);
    if (auto created = created_at.find(event.actor()); created != created_at.end()) work.push_back(created->second);
  }
  Schedule schedule;
  for (std::uint32_t at : needed) schedule.push_back(wire::label_of(trace.events(static_cast<int>(at))));
  return schedule;
}

bool fails_the_same_way(const proto::TraceFile& original, const proto::TraceFile& candidate) {
  if (candidate.result().status() != original.result().status()) return false;
  const auto a = failed_step(original), b = failed_step(candidate);
  if (a.has_value() != b.has_value()) return false;
  if (a) {
    const auto& x = original.events(static_cast<int>(*a));
    const auto& y = candidate.events(static_cast<int>(*b));
    return x.actor() == y.actor() && x.type() == y.type() && x.outcome() == y.outcome() && x.detail() == y.detail();
  }
  if (original.result().status() == proto::RUN_DEADLOCK) {
    auto waits = [](const proto::TraceFile& trace) {
      std::set<std::pair<std::string, std::string>> waiting;
      for (const auto& blocked : trace.result().blocked()) waiting.emplace(blocked.actor(), blocked.waiting_for());
      return waiting;
    };
    return waits(original) == waits(candidate);
  }
  return true;
}

Schedule minimize(Schedule schedule, const std::function<bool(const Schedule&)>& still_fails, std::size_t max_tests) {
  std::size_t tests = 0;
  std::size_t parts = 2;
  while (schedule.size() >= 2 && tests < max_tests) {
    const std::size_t chunk = (schedule.size() + parts - 1) / parts;
    bool reduced = false;
    // Removing one chunk at a time (ddmin's complements): a 1-minimal result when parts reach n.
    for (std::size_t start = 0; start < schedule.size() && tests < max_tests; start += chunk) {
      Schedule candidate(schedule.begin(), schedule.begin() + static_cast<std::ptrdiff_t>(start));
      const std::size_t end = std::min(schedule.size(), start + chunk);
      candidate.insert(candidate.end(), schedule.begin() + static_cast<std::ptrdiff_t>(end), schedule.end());
      ++tests;
      if (still_fails(candidate)) {
        schedule = std::move(candidate);
        parts = std::max<std::size_t>(parts - 1, 2);
        reduced = true;
        break;
      }
    }
    if (reduced) continue;
    if (parts >= schedule.size()) break;
    parts = std::min(schedule.size(), parts * 2);
  }
  return schedule;
}

}  // namespace exocheck::agent
