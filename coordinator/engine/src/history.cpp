#include "history.hpp"

#include <algorithm>
#include <deque>

namespace exocheck::engine {

std::size_t History::index_of(const std::string& actor) {
  auto [it, inserted] = index_.try_emplace(actor, actors_.size());
  if (inserted) {
    actors_.push_back(actor);
    records_.push_back({actors_.size() - 1, 0, 0, {}});
  }
  return it->second;
}

void History::record(const Execution& execution) {
  auto learn = [&](const std::string& sender, const Step& step) {
    for (const auto& created : step.created) index_of(created);
    if (sender.empty()) return;  // main's sends say nothing about an actor
    const std::size_t from = index_of(sender);
    records_[from].received += 1;
    for (const auto& sent : step.sent) {
      const std::size_t to = index_of(sent.receiver);
      records_[from].sent += 1;
      auto& targets = records_[from].targets;
      if (std::find(targets.begin(), targets.end(), to) == targets.end()) targets.push_back(to);
    }
  };
  learn("", execution.initial);
  for (const auto& step : execution.steps) learn(step.actor, step);
}

std::vector<std::string> History::ranking(Heuristic heuristic) const {
  if (heuristic == Heuristic::kHms) return by_messages_sent();
  if (heuristic == Heuristic::kSgr) return by_send_graph();
  return {};
}

std::vector<std::string> History::by_messages_sent() const {
  std::vector<std::size_t> order(actors_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto rate = [&](std::size_t i) { return records_[i].received == 0 ? 0.0 : records_[i].sent / records_[i].received; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rate(a) > rate(b); });
  std::vector<std::string> ranking;
  for (std::size_t i : order) ranking.push_back(actors_[i]);
  return ranking;
}

std::vector<std::string> History::by_send_graph() const {
  const std::size_t n = actors_.size();
  std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n, false));
  for (std::size_t from = 0; from < n; ++from) {
    std::deque<std::size_t> queue{from};
    while (!queue.empty()) {
      const std::size_t at = queue.front();
      queue.pop_front();
      for (std::size_t to : records_[at].targets) {
        if (!reaches[from][to]) {
          reaches[from][to] = true;
          queue.push_back(to);
        }
      }
    }
  }
  // A linear extension of "A before B when B is reachable from A and not A from B", taking the
  // actor seen first whenever several are free.
  std::vector<bool> placed(n, false);
  std::vector<std::string> ranking;
  for (std::size_t round = 0; round < n; ++round) {
    for (std::size_t candidate = 0; candidate < n; ++candidate) {
      if (placed[candidate]) continue;
      bool dominated = false;
      for (std::size_t other = 0; other < n && !dominated; ++other) {
        dominated = !placed[other] && other != candidate && reaches[other][candidate] && !reaches[candidate][other];
      }
      if (dominated) continue;
      placed[candidate] = true;
      ranking.push_back(actors_[candidate]);
      break;
    }
  }
  return ranking;
}

}  // namespace exocheck::engine
