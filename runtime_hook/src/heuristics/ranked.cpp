// RANKED: the order of the request's ranking (HMS's or SGR's, learnt by the engine); actors the
// ranking does not name come after, by creation.
#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

int ranked(const ActorSummary& a, const ActorSummary& b) {
  return compare(a.rank, b.rank);
}

}  // namespace exocheck::detail::heuristics
