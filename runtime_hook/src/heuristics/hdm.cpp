// HDM: the actor with the most enabled messages.
#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

int hdm(const ActorSummary& a, const ActorSummary& b) {
  return compare(b.enabled_count, a.enabled_count);
}

}  // namespace exocheck::detail::heuristics
