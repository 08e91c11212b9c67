#pragma once
// Which enabled message a controlled run delivers next once the prefix is used up: the request's
// heuristic (heuristics/, one file each) picks the actor; within one actor messages go in send
// order. Ties between actors are broken by creation order (ECA), so every choice is deterministic.
// RANDOM_WALK, PCT and POS choose among all enabled messages, from the request's seed (randomized.hpp).

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "heuristics/heuristic.hpp"
#include "heuristics/randomized.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

class SchedulingOrder {
 public:
  /// The request's heuristic, its ranking (RANKED: actor ids, highest priority first), seed and
  /// PCT's depth and step estimate. Throws std::invalid_argument for a heuristic the hook does
  /// not apply.
  explicit SchedulingOrder(const proto::RunRequest& request);

  /// Index into `enabled` (non-empty, in send order) of the message to deliver at `step`.
  std::size_t choose(const std::vector<Candidate>& enabled, std::uint32_t step);

 private:
  bool before(const ActorSummary& a, const ActorSummary& b) const;

  std::unique_ptr<heuristics::RandomizedChoice> randomized_;  ///< RANDOM_WALK, PCT, POS; else null
  ActorComparison comparison_ = nullptr;
  bool ranked_;
  std::unordered_map<std::string, std::size_t> rank_;
  /// choose()'s working memory, kept from one step to the next (it runs at every step).
  std::vector<ActorSummary> actors_;
};

}  // namespace exocheck::detail
