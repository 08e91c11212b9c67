#pragma once
// The check axis: a property of whole paths checked besides the verdicts of single runs.

#include <array>
#include <string_view>

#include "exocheck/options/option_table.hpp"
#include "proto/options.pb.h"

namespace exocheck::options {

struct CheckRow {
  std::string_view name;
  std::string_view help;
  bool engine;  ///< coordinator::ExplorationOptions::check_determinism
  proto::Check wire;
};

inline constexpr std::string_view kCheckFlag = "--check";
inline constexpr std::string_view kCheckHelp =
    "Also check a property of whole paths. Results are then sent whole, which costs speed";

inline constexpr std::array<CheckRow, 2> kChecks{{
    {"none", "no property of whole paths (the default)", false, proto::CHECK_NONE},
    {"determinism",
     "every completed path must end in the same final state (the actors' final_state summaries); each other "
     "final state is a bug, reported with the trace of the first completed path",
     true, proto::CHECK_DETERMINISM},
}};

inline std::string_view check_name(bool check_determinism) {
  return row_of(kChecks, check_determinism).name;
}

}  // namespace exocheck::options
