#include "scheduling_order.hpp"

#include <algorithm>
#include <limits>

namespace exocheck::detail {

SchedulingOrder::SchedulingOrder(proto::Heuristic heuristic, const std::vector<std::string>& ranking)
    : comparison_(heuristics::comparison_for(heuristic)), ranked_(heuristic == proto::RANKED) {
  for (std::size_t i = 0; i < ranking.size(); ++i) rank_.emplace(ranking[i], i);
}

bool SchedulingOrder::before(const ActorSummary& a, const ActorSummary& b) const {
  const int order = comparison_(a, b);
  return order != 0 ? order < 0 : a.creation_seq < b.creation_seq;
}

std::size_t SchedulingOrder::choose(const std::vector<Candidate>& enabled) const {
  // Enabled sets are small (tens of messages): a linear pass with a few summaries is cheapest.
  auto& actors = actors_;
  actors.clear();
  for (std::size_t i = 0; i < enabled.size(); ++i) {
    const Candidate& c = enabled[i];
    ActorSummary* summary = nullptr;
    for (auto& s : actors) {
      if (s.actor == c.actor) summary = &s;
    }
    if (summary == nullptr) {
      std::size_t rank = std::numeric_limits<std::size_t>::max();
      if (ranked_) {
        auto it = rank_.find(*c.actor_id);
        if (it != rank_.end()) rank = it->second;
      }
      actors.push_back({c.actor, c.creation_seq, c.send_seq, c.send_seq, 0, rank, i});
      summary = &actors.back();
    }
    ++summary->enabled_count;
    if (c.send_seq < summary->earliest_send) {
      summary->earliest_send = c.send_seq;
      summary->first_index = i;
    }
    summary->latest_send = std::max(summary->latest_send, c.send_seq);
  }
  const ActorSummary* best = &actors.front();
  for (const auto& s : actors) {
    if (before(s, *best)) best = &s;
  }
  return best->first_index;
}

}  // namespace exocheck::detail
