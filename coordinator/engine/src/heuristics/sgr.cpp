// SGR (heuristics paper, Section 5, item 8): the send graph of the runs so far (an edge A -> B
// when A ever sent to B); A goes before B when B is reachable from A but not A from B.
#include <deque>

#include "history.hpp"

namespace exocheck::engine {

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
