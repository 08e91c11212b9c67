#pragma once
// What an exploration measures. Mergeable, so figures from many sources add up.

#include <cstdint>

namespace exocheck::engine {

struct Stats {
  std::uint64_t paths = 0;           ///< complete executions (bugs included)
  std::uint64_t sleep_blocked = 0;   ///< executions cut short because every enabled message slept
  std::uint64_t transitions = 0;     ///< edges of the explored tree (the papers' "# of Trans")
  std::uint64_t executed_steps = 0;  ///< macro-steps actually run, prefix replays included
  std::uint64_t classes = 0;         ///< distinct Mazurkiewicz classes among the paths
  std::uint64_t bugs = 0;            ///< executions that ended in a bug
  std::uint64_t step_limited = 0;    ///< paths cut at the step limit (the exploration is then bounded)
  std::uint64_t faulted = 0;         ///< paths in which the explorer injected a fault (Execution::faulted)
  /// Runs whose races were analysed in part (ExplorerOptions::analysis_reads): the exploration is
  /// then bounded.
  std::uint64_t analysed_in_part = 0;
  /// Runs (and backtrack requests from other explorers) whose sequences were cut short to keep the
  /// wakeup trees within ExplorerOptions::held_wakeup_events: the exploration is then bounded.
  std::uint64_t cut_for_memory = 0;
  /// A portfolio's runs by its randomized members: not among `paths`, which are the systematic
  /// member's, but their bugs are among `bugs`.
  std::uint64_t sampled = 0;

  /// paths / classes (1.0 = no redundancy; 0 when nothing was explored).
  double redundancy() const { return classes == 0 ? 0.0 : static_cast<double>(paths) / static_cast<double>(classes); }

  Stats& operator+=(const Stats& other) {
    paths += other.paths;
    sleep_blocked += other.sleep_blocked;
    transitions += other.transitions;
    executed_steps += other.executed_steps;
    classes += other.classes;
    bugs += other.bugs;
    step_limited += other.step_limited;
    faulted += other.faulted;
    analysed_in_part += other.analysed_in_part;
    cut_for_memory += other.cut_for_memory;
    sampled += other.sampled;
    return *this;
  }
  /// Takes back figures added before (a subtree's, explored again by another worker).
  Stats& operator-=(const Stats& other) {
    paths -= other.paths;
    sleep_blocked -= other.sleep_blocked;
    transitions -= other.transitions;
    executed_steps -= other.executed_steps;
    classes -= other.classes;
    bugs -= other.bugs;
    step_limited -= other.step_limited;
    faulted -= other.faulted;
    analysed_in_part -= other.analysed_in_part;
    cut_for_memory -= other.cut_for_memory;
    sampled -= other.sampled;
    return *this;
  }
};

}  // namespace exocheck::engine
