#pragma once
// The reduction axis: which reduction decides what goes into backtrack sets.

#include <array>
#include <string_view>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/option_table.hpp"
#include "proto/options.pb.h"

namespace exocheck::options {

struct ReductionRow {
  std::string_view name;
  std::string_view help;
  engine::Reduction engine;
  proto::Reduction wire;
};

inline constexpr std::string_view kReductionFlag = "--reduction";
inline constexpr std::string_view kReductionHelp = "How to prune equivalent schedules";

inline constexpr std::array<ReductionRow, 4> kReductions{{
    {"exhaustive", "every interleaving (the yardstick)", engine::Reduction::kExhaustive, proto::REDUCTION_EXHAUSTIVE},
    {"dpor", "persistent-set DPOR for actors (TransDPOR paper, Fig. 2 without the underlined lines)",
     engine::Reduction::kDpor, proto::REDUCTION_DPOR},
    {"transdpor", "TransDPOR (Fig. 2: freeze flags and the minimal-j set E)", engine::Reduction::kTransDpor,
     proto::REDUCTION_TRANSDPOR},
    {"optimal",
     "optimal DPOR (source sets and wakeup trees): one execution per class with one worker (runs side by side "
     "may repeat a few); always with sleep sets",
     engine::Reduction::kOptimal, proto::REDUCTION_OPTIMAL},
}};

inline std::string_view name_of(engine::Reduction reduction) {
  return row_of(kReductions, reduction).name;
}

inline std::optional<engine::Reduction> parse_reduction(std::string_view name) {
  return parse(kReductions, name);
}

}  // namespace exocheck::options
