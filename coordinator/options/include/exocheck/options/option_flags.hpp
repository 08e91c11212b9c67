#pragma once
// The command-line side of the option tables: each axis declared on a CLI11 app with its one
// flag name, its help text and exactly the table's names as choices. `exocheck explore`,
// `exocheck run`, `exocheck replay`, the daemons and the benchmarks all declare their options here.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "exocheck/options/bounds.hpp"

namespace exocheck::options {

/// --reduction NAME, one of kReductions.
CLI::Option* add_reduction_option(CLI::App& app, std::string& name);

/// --strategy NAME, one of kStrategies.
CLI::Option* add_strategy_option(CLI::App& app, std::string& name);

/// Which heuristics an option offers.
enum class HeuristicChoices {
  kAll,            ///< every row: an exploration learns HMS's and SGR's rankings as it goes
  kAppliedByHook,  ///< a single run has no history to learn from
};
/// --heuristic NAME; `lead` opens the help text, the choices' descriptions follow.
CLI::Option* add_heuristic_option(CLI::App& app, std::string& name, HeuristicChoices choices, std::string_view lead);

/// --sleep-sets and --no-sleep-sets (kSleepSets), which exclude each other; sets `off` for the latter.
void add_sleep_set_flags(CLI::App& app, bool& on, bool& off);

/// --delivery NAME, one of kDeliveries.
/// `name` empty: the front end's order applies when the option is not given (its help says which).
CLI::Option* add_delivery_option(CLI::App& app, std::string& name);

/// --timers NAME, one of kTimers.
CLI::Option* add_timers_option(CLI::App& app, std::string& name);

/// --check NAME[,NAME...], each one of kChecks (the flag may also be given again).
CLI::Option* add_check_option(CLI::App& app, std::vector<std::string>& names);

/// The bound's flag with its help text, a count: digits only (CLI11 would take "-1" for an
/// unsigned count and wrap it). The caller adds a narrower range and the default shown.
template <typename Value>
CLI::Option* add_bound_option(CLI::App& app, const Bound& bound, Value& value) {
  const CLI::Validator count(
      [](std::string& text) {
        const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        return digits ? std::string() : "a whole number of 0 or more was expected, not '" + text + "'";
      },
      "COUNT");
  return app.add_option(std::string(bound.flag), value, std::string(bound.help))->check(count);
}

/// A bound counted in seconds (kTimeLimit, kRunTimeout, kRunTime): a number of seconds, or a number
/// with a unit (500ms, 90s, 5m, 1h), from a millisecond to `most` seconds; the caller adds the default shown.
CLI::Option* add_seconds_option(CLI::App& app, const Bound& bound, double& seconds, double most);

/// Most seconds of one run (--timeout, --run-timeout): a day.
inline constexpr double kMostRunSeconds = 86'400;
/// Most seconds of an exploration (--time-limit): a year.
inline constexpr double kMostExplorationSeconds = 365 * 86'400.0;

/// Faults the explorer injects as choices (trace.proto's FaultBudget; DESIGN.md, "Faults").
struct FaultFlags {
  std::uint32_t crashes = 0;
  std::uint32_t losses = 0;
  std::uint32_t duplicates = 0;
  std::uint32_t partitions = 0;
  std::vector<std::string> partition_side;
  std::vector<std::string> crash_types;
  std::vector<std::string> crash_actors;
  std::vector<std::string> lossy_types;
};
/// --crash N, --lose N, --duplicate N, --crash-types T[,T...], --crash-actors ID[,ID...],
/// --lossy-types T[,T...].
void add_fault_options(CLI::App& app, FaultFlags& flags);

/// --json: machine-readable output instead of text for people; `help` says of what.
CLI::Option* add_json_flag(CLI::App& app, bool& json, std::string_view help);

/// The runner's modes, which explore and exocheck-agent both offer.
CLI::Option* add_no_fork_server_flag(CLI::App& app, bool& no_fork_server);
CLI::Option* add_no_in_place_flag(CLI::App& app, bool& no_in_place);

}  // namespace exocheck::options
