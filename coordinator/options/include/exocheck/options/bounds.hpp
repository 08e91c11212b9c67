#pragma once
// The bounds: numbers that cut an exploration or a run short. Each is a field of its own in the
// engine's or the session's options and on the wire (ExplorationSettings); this table gives each
// its one command-line name, help text and default.

#include <array>
#include <chrono>
#include <cstdint>
#include <string_view>

namespace exocheck::options {

struct Bound {
  std::string_view flag;
  std::string_view help;
};

/// engine::ExplorerOptions::max_paths; ExplorationSettings.max_paths.
inline constexpr Bound kMaxPaths{"--max-paths", "Stop after this many paths; 0 = no limit"};
/// The exploration's wall clock; ExplorationSettings.time_limit_ms.
inline constexpr Bound kTimeLimit{"--time-limit", "Stop handing out runs after this many seconds"};
/// Each run of an exploration; ExplorationSettings.run_timeout_ms.
inline constexpr Bound kRunTimeout{"--run-timeout", "Wall-clock limit for each run, in seconds"};
/// The one run of `exocheck run` and `exocheck replay`.
inline constexpr Bound kRunTime{"--timeout", "Wall-clock limit for the run, in seconds"};
/// Macro-steps per run; RunRequest.step_limit and ExplorationSettings.step_limit.
inline constexpr Bound kStepLimit{"--step-limit", "Most macro-steps per run after the initial one; 0 = no limit"};

/// Distinct bugs whose traces an exploration keeps (the rest are counted): what it holds grows
/// with them. ExplorationSettings.bug_traces.
inline constexpr Bound kBugTraces{"--bug-traces",
                                  "With --keep-going: keep the traces of this many distinct bugs, count the rest"};
/// ExplorationSettings.max_bugs.
inline constexpr Bound kMaxBugs{"--max-bugs",
                                "Stop after this many distinct bugs (implies --keep-going); 0 = no limit"};

/// engine::ExplorerOptions::held_wakeup_events; ExplorationSettings.wakeup_budget.
inline constexpr Bound kWakeupBudget{
    "--wakeup-budget",
    "optimal: most events the wakeup trees hold (the sequences still to explore, about 50 bytes each), "
    "embedded and in each agent; past it, new sequences are cut short and the exploration is bounded; "
    "0 = no limit"};

/// Fair rounds a specification monitor may stay hot; RunRequest.liveness_bound and
/// ExplorationSettings.liveness_bound.
inline constexpr Bound kLivenessBound{
    "--liveness-bound",
    "A specification monitor hot throughout more than this many fair rounds (a round ends once every actor "
    "with a message enabled at its start had a step) is a potential liveness bug, even in a run that never "
    "ends; 0 = judge monitors where a run ends only (completed, deadlocked or cut by --step-limit)"};

inline constexpr std::array<Bound, 9> kBounds{kMaxPaths,  kTimeLimit, kRunTimeout,   kRunTime,      kStepLimit,
                                              kBugTraces, kMaxBugs,   kWakeupBudget, kLivenessBound};

/// Defaults where a bound has one (a client that leaves a field 0 gets these from the coordinator).
inline constexpr std::uint64_t kDefaultStepLimit = 100'000;
inline constexpr std::chrono::milliseconds kDefaultRunTimeout{10'000};
inline constexpr std::uint64_t kDefaultBugTraces = 100;

}  // namespace exocheck::options
