#pragma once
// What the differential tests share: the programs they compare on, how a case is named, and what
// "reaches what exhaustive reaches" means.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "exploration.hpp"

namespace exocheck::engine::testing {

/// Exhaustive paths; larger programs are skipped.
inline constexpr std::uint64_t kLargestSpace = 2000;

inline constexpr Heuristic kHeuristics[] = {Heuristic::kFifo, Heuristic::kLifo, Heuristic::kEca, Heuristic::kLca,
                                            Heuristic::kLdm,  Heuristic::kHdm,  Heuristic::kHms, Heuristic::kSgr};

inline std::string describe(std::uint64_t seed, const ExplorerOptions& o) {
  return "program seed " + std::to_string(seed) + ", " + std::string(name_of(o.reduction)) +
         (o.sleep_sets ? " + sleep sets" : "") + ", " + std::string(name_of(o.heuristic));
}

inline void expect_same_reach(const Reached& expected, const Reached& actual, const std::string& what) {
  EXPECT_EQ(actual.classes, expected.classes) << what;
  // The explorers' own count, which optimal DPOR makes without holding the classes.
  EXPECT_EQ(actual.stats.classes, actual.classes.size()) << what << ": classes counted";
  EXPECT_EQ(actual.final_states, expected.final_states) << what;
  EXPECT_EQ(actual.deadlocks, expected.deadlocks) << what;
  EXPECT_EQ(actual.failures, expected.failures) << what;
}

}  // namespace exocheck::engine::testing
