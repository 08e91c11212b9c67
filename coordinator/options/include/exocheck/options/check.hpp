#pragma once
// The check axis: properties of whole paths checked besides the verdicts of single runs. Several
// may be asked at once (--check determinism,termination); each row names one field of
// engine::Checks.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/option_table.hpp"
#include "proto/options.pb.h"

namespace exocheck::options {

struct CheckRow {
  std::string_view name;
  std::string_view help;
  bool engine::Checks::*engine;  ///< the check this row asks for; nullptr: none
  proto::Check wire;
};

inline constexpr std::string_view kCheckFlag = "--check";
inline constexpr std::string_view kCheckHelp =
    "Also check properties of whole paths, one or more (comma-separated or the flag again). Results are then sent "
    "whole, which costs speed";

inline constexpr std::array<CheckRow, 3> kChecks{{
    {"none", "no property of whole paths (the default)", nullptr, proto::CHECK_NONE},
    {"determinism",
     "every completed path must end in the same final state (the actors' final_state summaries); each other "
     "final state is a bug, reported with the trace of the first completed path",
     &engine::Checks::determinism, proto::CHECK_DETERMINISM},
    {"termination",
     "every run must end within the step limit: a run cut there is a bug (a livelock), reported with its trace; "
     "without it such runs make the exploration bounded (exit 3), never complete",
     &engine::Checks::termination, proto::CHECK_TERMINATION},
}};

/// The rows of `checks`, in the table's order (none: "none"'s row).
inline std::vector<const CheckRow*> rows_of(const engine::Checks& checks) {
  std::vector<const CheckRow*> rows;
  for (const auto& row : kChecks) {
    if (row.engine != nullptr && checks.*row.engine) rows.push_back(&row);
  }
  if (rows.empty()) rows.push_back(&kChecks.front());
  return rows;
}

/// Whether `checks` asks for any check.
inline bool any_check(const engine::Checks& checks) {
  return rows_of(checks).front()->engine != nullptr;
}

/// The names of `checks` joined by commas, "none" when there are none.
inline std::string names_of(const engine::Checks& checks) {
  std::string names;
  for (const auto* row : rows_of(checks)) names += (names.empty() ? "" : ",") + std::string(row->name);
  return names;
}

/// Adds `row`'s check to `checks` (row_named or row_on_wire of kChecks); false for no row (a name
/// or a wire value this build does not know).
inline bool add_check(const CheckRow* row, engine::Checks& checks) {
  if (row == nullptr) return false;
  if (row->engine != nullptr) checks.*row->engine = true;
  return true;
}

}  // namespace exocheck::options
