// LCA: the latest created actor (creation = end of construction).
#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

int lca(const ActorSummary& a, const ActorSummary& b) {
  return compare(b.creation_seq, a.creation_seq);
}

}  // namespace exocheck::detail::heuristics
