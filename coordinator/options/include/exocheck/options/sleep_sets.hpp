#pragma once
// The sleep-set axis: on or off (Godefroid's sleep sets on top of the reduction; the engine's
// part is coordinator/engine/src/sleep_set.hpp, the hook's runtime_hook/src/sleep_set.hpp).

#include <array>
#include <string_view>

#include "exocheck/options/option_table.hpp"

namespace exocheck::options {

struct SleepSetsRow {
  std::string_view name;  ///< as reports print it: "sleep sets on"
  std::string_view flag;  ///< the command-line flag that chooses it
  std::string_view help;
  bool engine;  ///< engine::ExplorerOptions::sleep_sets
  bool wire;    ///< proto::ExplorationSettings.sleep_sets
};

inline constexpr std::array<SleepSetsRow, 2> kSleepSets{{
    {"on", "--sleep-sets", "Use sleep sets (the default)", true, true},
    {"off", "--no-sleep-sets", "Do not use sleep sets", false, false},
}};

inline std::string_view sleep_sets_name(bool sleep_sets) {
  return row_of(kSleepSets, sleep_sets).name;
}

}  // namespace exocheck::options
