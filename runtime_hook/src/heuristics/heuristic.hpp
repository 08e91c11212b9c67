#pragma once
// The ordering heuristics of the heuristics paper (Lauterburg et al., FASE 2010, Section 5) as
// the hook applies them, one file each: the heuristic picks the actor, and within one actor
// messages go in send order (SchedulingOrder). A heuristic compares two actors that have enabled
// messages; a tie goes to the actor created first (ECA), so every choice is deterministic. HMS and
// SGR are learnt from earlier runs by the engine (coordinator/engine/src/heuristics/), which sends
// their ranking with RANKED.

#include <cstddef>
#include <cstdint>
#include <string>

#include "wire_messages.hpp"

namespace exocheck::detail {

/// What a heuristic may look at for one enabled message.
struct Candidate {
  std::uint64_t send_seq;       ///< global send order of the message
  std::uint32_t actor;          ///< receiver's dense index (ActorCell::index)
  std::uint64_t creation_seq;   ///< receiver's creation time (end of its construction)
  const std::string* actor_id;  ///< receiver's id, for RANKED
};

/// What a heuristic may look at for one actor with enabled messages.
struct ActorSummary {
  std::uint32_t actor;
  std::uint64_t creation_seq;   ///< end of its construction
  std::uint64_t earliest_send;  ///< send_seq of its earliest enabled message
  std::uint64_t latest_send;    ///< send_seq of its latest enabled message
  std::size_t enabled_count;
  std::size_t rank;         ///< position in RANKED's ranking, or max() when unranked
  std::size_t first_index;  ///< index in the enabled list of its earliest message
};

/// Negative when `a` goes first, positive when `b` does, 0 for a tie.
using ActorComparison = int (*)(const ActorSummary& a, const ActorSummary& b);

namespace heuristics {

/// -1, 0 or 1 as `a` is smaller than, equal to or greater than `b`.
template <typename T>
constexpr int compare(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int fifo(const ActorSummary& a, const ActorSummary& b);
int lifo(const ActorSummary& a, const ActorSummary& b);
int eca(const ActorSummary& a, const ActorSummary& b);
int lca(const ActorSummary& a, const ActorSummary& b);
int ldm(const ActorSummary& a, const ActorSummary& b);
int hdm(const ActorSummary& a, const ActorSummary& b);
int ranked(const ActorSummary& a, const ActorSummary& b);

/// The comparison of `heuristic`. Throws std::invalid_argument for a number the hook does not
/// apply: an unknown one, or HMS and SGR, which reach the hook as RANKED.
ActorComparison comparison_for(proto::Heuristic heuristic);

}  // namespace heuristics
}  // namespace exocheck::detail
