#pragma once
// Randomized scheduling (RunRequest's RANDOM_WALK, PCT and POS): unlike the ordering heuristics, which
// pick an actor and then its earliest message, these choose among all enabled messages, so that
// two messages to one actor are reordered as often as two to different actors. Each choice
// depends on the request's seed and on what the run did so far only: a request is one schedule.

#include <cstdint>
#include <memory>
#include <vector>

#include "heuristics/heuristic.hpp"

namespace exocheck::detail::heuristics {

class RandomizedChoice {
 public:
  virtual ~RandomizedChoice() = default;
  /// Index into `enabled` (non-empty) of the message to deliver at `step` (1, 2, ...).
  virtual std::size_t choose(const std::vector<Candidate>& enabled, std::uint32_t step) = 0;
};

/// A uniformly chosen enabled message at each step.
std::unique_ptr<RandomizedChoice> make_random_walk(std::uint64_t seed);
/// PCT (Burckhardt et al., ASPLOS 2010) with messages as its threads (pct.cpp).
std::unique_ptr<RandomizedChoice> make_pct(std::uint64_t seed, std::uint32_t depth, std::uint32_t steps);
/// POS (Yuan, Yang, Gu, CAV 2018) with messages as its events (pos.cpp).
std::unique_ptr<RandomizedChoice> make_pos(std::uint64_t seed);

/// Whether `heuristic` is one of these (its choices of values and faults are drawn too).
constexpr bool is_randomized(proto::Heuristic heuristic) {
  return heuristic == proto::RANDOM_WALK || heuristic == proto::PCT || heuristic == proto::POS;
}

}  // namespace exocheck::detail::heuristics
