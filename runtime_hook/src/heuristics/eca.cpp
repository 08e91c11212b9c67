// ECA: the earliest created actor. Every comparison is a tie, which creation order breaks.
#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

int eca(const ActorSummary&, const ActorSummary&) {
  return 0;
}

}  // namespace exocheck::detail::heuristics
