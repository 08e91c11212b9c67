#pragma once
// The rules between options, in one place and in the flags' words: `exocheck explore` asks them of
// what it parsed, and the coordinator of every submission, with this same function.

#include <string>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/strategy.hpp"

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

}  // namespace exocheck::options
