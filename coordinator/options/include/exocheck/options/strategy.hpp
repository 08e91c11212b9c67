#pragma once
// The strategy axis: explore every class (the reduction's tree), or sample seeded schedules for
// programs whose classes are too many to explore.

#include <array>
#include <string>
#include <string_view>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/option_table.hpp"
#include "proto/control.pb.h"
#include "proto/options.pb.h"

namespace exocheck::options {

struct StrategyRow {
  std::string_view name;
  std::string_view help;
  engine::Strategy engine;
  proto::Strategy wire;
  proto::Heuristic hook;  ///< what the hook applies after the prefix (sampled strategies only)
};

inline constexpr std::string_view kStrategyFlag = "--strategy";
inline constexpr std::string_view kStrategyHelp = "How to choose the schedules to run";

inline constexpr std::array<StrategyRow, 5> kStrategies{{
    {"systematic", "every class, as the reduction prunes them", engine::Strategy::kSystematic,
     proto::STRATEGY_SYSTEMATIC, proto::FIFO},
    {"random", "seeded random walks: at each step a uniformly chosen enabled message (--runs or --time-limit)",
     engine::Strategy::kRandomWalk, proto::STRATEGY_RANDOM, proto::RANDOM_WALK},
    {"pct", "seeded PCT runs over messages: random priorities, --depth - 1 change points (--runs or --time-limit)",
     engine::Strategy::kPct, proto::STRATEGY_PCT, proto::PCT},
    {"pos",
     "seeded partial order sampling runs: random priorities, redrawn for the messages to the actor a delivery went to "
     "(--runs or --time-limit)",
     engine::Strategy::kPos, proto::STRATEGY_POS, proto::POS},
    {"portfolio",
     "the systematic exploration with seeded random walks, PCT and POS runs beside it: bugs early, complete only "
     "when the systematic part is",
     engine::Strategy::kPortfolio, proto::STRATEGY_PORTFOLIO, proto::FIFO},
}};

/// The CLI's: bugs early where there are some, and complete where the systematic part is. The
/// papers' figures are the systematic strategy's alone (`--strategy systematic`).
inline constexpr engine::Strategy kDefaultStrategy = engine::Strategy::kPortfolio;

/// PCT's depth d: its flag, and its most (its least is 1: no change point).
inline constexpr std::string_view kDepthFlag = "--depth";
inline constexpr std::uint32_t kMostPctDepth = 64;
/// Runs of a sampled strategy when neither --runs nor --time-limit is given.
inline constexpr std::uint64_t kDefaultSampledRuns = 1000;

inline std::string_view name_of(engine::Strategy strategy) {
  return row_of(kStrategies, strategy).name;
}

inline std::optional<engine::Strategy> parse_strategy(std::string_view name) {
  return parse(kStrategies, name);
}

/// What the hook is asked to apply for a sampled `strategy`.
inline proto::Heuristic to_hook(engine::Strategy strategy) {
  return row_of(kStrategies, strategy).hook;
}

}  // namespace exocheck::options
