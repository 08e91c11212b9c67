// LDM: the actor with the fewest enabled messages.
#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

int ldm(const ActorSummary& a, const ActorSummary& b) {
  return compare(a.enabled_count, b.enabled_count);
}

}  // namespace exocheck::detail::heuristics
