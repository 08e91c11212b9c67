#pragma once
// What the heuristics HMS and SGR learn across executions (heuristics paper, Section 5, items 7
// and 8), and the actor ranking each derives for the next run (heuristics/hms.cpp, sgr.cpp).
//
// HMS ranks actors by messages sent per message received, highest first. SGR keeps the send graph
// (an edge A -> B when A ever sent to B) and ranks A before B when B is reachable from A but not A
// from B. Ties go to the actor seen first (in spawn order): the engine does not see construction
// completion, so this approximates the paper's ECA tie-break.

#include <string>
#include <unordered_map>
#include <vector>

#include "exocheck/engine/execution.hpp"
#include "exocheck/engine/options.hpp"

namespace exocheck::engine {

class History {
 public:
  /// Learns from one execution.
  void record(const Execution& execution);
  /// Actor ids, highest priority first, for HMS or SGR (empty for the other heuristics).
  std::vector<std::string> ranking(Heuristic heuristic) const;

 private:
  struct ActorRecord {
    std::size_t first_seen = 0;
    double sent = 0;
    double received = 0;
    std::vector<std::size_t> targets;  ///< indices of actors it sent to
  };

  std::size_t index_of(const std::string& actor);
  std::vector<std::string> by_messages_sent() const;  ///< HMS: heuristics/hms.cpp
  std::vector<std::string> by_send_graph() const;     ///< SGR: heuristics/sgr.cpp

  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::string> actors_;
  std::vector<ActorRecord> records_;
};

}  // namespace exocheck::engine
