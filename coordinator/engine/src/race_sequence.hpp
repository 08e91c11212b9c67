#pragma once
// The wakeup sequence optimal DPOR (optimal_exploration.cpp) puts into the tree for one race:
// v = notdep(e, E).e', within what the analysis of a run may read, so that a long run's races do
// not take time quadratic in its length.

#include <cstdint>
#include <optional>

#include "exploration.hpp"
#include "names.hpp"
#include "trace_view.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine {

/// What the analysis of one run may still read (ExplorerOptions::analysis_reads,
/// longest_sequence), and whether it cut a sequence short.
struct AnalysisBudget {
  std::uint64_t reads_left = 0;
  std::size_t longest_sequence = 0;
  bool cut_short = false;
};

/// v for the race of step i with message m (`notifies`: its delivery notified a monitor, or may),
/// from the steps after i up to `end`. Past the reads left,
/// or the events a sequence keeps, v keeps one event at least (an initial of it) and ends in
/// WakeupEvent::rest_of_sequence(). Nothing when `exploration` was interrupted meanwhile.
std::optional<WakeupSequence> race_sequence(const TraceView& trace, const Names& names, std::size_t i, Key m,
                                            MonitorLanes notifies, std::size_t end, AnalysisBudget& budget,
                                            const Exploration& exploration);

}  // namespace exocheck::engine
