#pragma once
// The rules between options and the ranges the wire cannot say, in one place and in the flags'
// words: `exocheck explore` asks them of what it parsed, and the coordinator of every submission,
// with these same functions.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/strategy.hpp"
#include "proto/trace.pb.h"

namespace exocheck::options {

/// Why `explorer` cannot be explored as asked; empty when it can.
inline std::string refusal(const engine::ExplorerOptions& explorer) {
  if (explorer.reduction == engine::Reduction::kOptimal && !explorer.sleep_sets) {
    return std::string(kReductionFlag) + " optimal (the default) always uses sleep sets (its wakeup trees need " +
           "them): --no-sleep-sets needs " + std::string(kReductionFlag) + " dpor, transdpor or exhaustive";
  }
  if (explorer.pct_depth < 1 || explorer.pct_depth > kMostPctDepth) {
    return std::string(kDepthFlag) + " must be from 1 to " + std::to_string(kMostPctDepth) + ", not " +
           std::to_string(explorer.pct_depth);
  }
  return {};
}

/// The most faults of each kind a run may suffer (--crash, --lose, --duplicate, --partition).
inline constexpr std::uint32_t kMostFaults = 1000;

/// Why a run cannot suffer `faults` as asked; empty when it can.
inline std::string refusal(const proto::FaultBudget& faults) {
  const std::pair<std::string_view, std::uint32_t> counts[] = {{"--crash", faults.crashes()},
                                                               {"--lose", faults.losses()},
                                                               {"--duplicate", faults.duplicates()},
                                                               {"--partition", faults.partitions()}};
  for (const auto& [flag, count] : counts) {
    if (count > kMostFaults) {
      return std::string(flag) + " must be from 0 to " + std::to_string(kMostFaults) + ", not " + std::to_string(count);
    }
  }
  return {};
}

}  // namespace exocheck::options
