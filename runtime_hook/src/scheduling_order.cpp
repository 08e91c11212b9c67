#include "scheduling_order.hpp"

#include <algorithm>
#include <limits>

namespace exocheck::detail {

SchedulingOrder::SchedulingOrder(const proto::RunRequest& request) : ranked_(request.heuristic() == proto::RANKED) {
  if (request.heuristic() == proto::RANDOM_WALK) {
    randomized_ = heuristics::make_random_walk(request.seed());
  } else if (request.heuristic() == proto::PCT) {
    randomized_ = heuristics::make_pct(request.seed(), request.pct_depth(), request.pct_steps());
  } else if (request.heuristic() == proto::POS) {
    randomized_ = heuristics::make_pos(request.seed());
  } else {
    comparison_ = heuristics::comparison_for(request.heuristic());
  }
  for (int i = 0; i < request.ranking_size(); ++i) rank_.emplace(request.ranking(i), static_cast<std::size_t>(i));
}

bool SchedulingOrder::before(const ActorSummary& a, const ActorSummary& b) const {
  const int order = comparison_(a, b);
  return order != 0 ? order < 0 : a.creation_seq < b.creation_seq;
}

std::size_t SchedulingOrder::choose(const std::vector<Candidate>& enabled, std::uint32_t step) {
  if (randomized_) return randomized_->choose(enabled, step);
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
