// HMS (heuristics paper, Section 5, item 7): actors that sent the most messages per message
// received, in the runs so far, first.
#include <algorithm>

#include "history.hpp"

namespace exocheck::engine {

std::vector<std::string> History::by_messages_sent() const {
  std::vector<std::size_t> order(actors_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto rate = [&](std::size_t i) { return records_[i].received == 0 ? 0.0 : records_[i].sent / records_[i].received; };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rate(a) > rate(b); });
  std::vector<std::string> ranking;
  for (std::size_t i : order) ranking.push_back(actors_[i]);
  return ranking;
}

}  // namespace exocheck::engine
