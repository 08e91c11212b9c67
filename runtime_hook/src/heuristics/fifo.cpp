// FIFO: the actor whose earliest enabled message was sent first.
#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

int fifo(const ActorSummary& a, const ActorSummary& b) {
  return compare(a.earliest_send, b.earliest_send);
}

}  // namespace exocheck::detail::heuristics
