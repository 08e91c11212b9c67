// LIFO: the actor whose latest enabled message was sent last.
#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

int lifo(const ActorSummary& a, const ActorSummary& b) {
  return compare(b.latest_send, a.latest_send);
}

}  // namespace exocheck::detail::heuristics
