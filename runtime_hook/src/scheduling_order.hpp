#pragma once
// Which enabled message a controlled run delivers next once the prefix is used up: the request's
// heuristic (heuristics/, one file each) picks the actor; within one actor messages go in send
// order. Ties between actors are broken by creation order (ECA), so every choice is deterministic.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "heuristics/heuristic.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

/// What a heuristic may look at for one enabled message.
struct Candidate {
  std::uint64_t send_seq;       ///< global send order of the message
  std::uint32_t actor;          ///< receiver's dense index (ActorCell::index)
  std::uint64_t creation_seq;   ///< receiver's creation time (end of its construction)
  const std::string* actor_id;  ///< receiver's id, for RANKED
};

class SchedulingOrder {
 public:
  /// `ranking`: actor ids, highest priority first (used by RANKED only). Throws
  /// std::invalid_argument for a heuristic the hook does not apply.
  SchedulingOrder(proto::Heuristic heuristic, const std::vector<std::string>& ranking);

  /// Index into `enabled` (non-empty, in send order) of the message to deliver next.
  std::size_t choose(const std::vector<Candidate>& enabled) const;

 private:
  bool before(const ActorSummary& a, const ActorSummary& b) const;

  ActorComparison comparison_;
  bool ranked_;
  std::unordered_map<std::string, std::size_t> rank_;
  /// choose()'s working memory, kept from one step to the next (it runs at every step).
  mutable std::vector<ActorSummary> actors_;
};

}  // namespace exocheck::detail
