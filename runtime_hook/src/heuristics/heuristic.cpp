#include "heuristics/heuristic.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

namespace exocheck::detail::heuristics {

namespace {

// The heuristics the hook applies, by the number a request names them with.
constexpr std::array<std::pair<proto::Heuristic, ActorComparison>, 7> kComparisons{{
    {proto::FIFO, fifo},
    {proto::LIFO, lifo},
    {proto::ECA, eca},
    {proto::LCA, lca},
    {proto::LDM, ldm},
    {proto::HDM, hdm},
    {proto::RANKED, ranked},
}};

}  // namespace

ActorComparison comparison_for(proto::Heuristic heuristic) {
  for (const auto& [number, comparison] : kComparisons) {
    if (number == heuristic) return comparison;
  }
  if (heuristic == proto::HMS || heuristic == proto::SGR) {
    throw std::invalid_argument("heuristic number " + std::to_string(static_cast<int>(heuristic)) +
                                " is learnt by the coordinator and reaches the hook as RANKED");
  }
  throw std::invalid_argument("unknown heuristic number " + std::to_string(static_cast<int>(heuristic)));
}

}  // namespace exocheck::detail::heuristics
