#include "history.hpp"

#include <algorithm>

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

}  // namespace exocheck::engine
