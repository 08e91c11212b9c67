#pragma once
// The independent axes of an exploration as the engine sees them. Their names, help texts and
// wire values are in one table per axis (coordinator/options/).

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace exocheck::engine {

/// Which reduction decides what to add to backtrack sets.
enum class Reduction {
  kExhaustive,  ///< every enabled message at every configuration: the yardstick
  kDpor,        ///< persistent-set DPOR for actors: TransDPOR paper Fig. 2 without the underlined lines
  kTransDpor,   ///< TransDPOR paper Fig. 2: freeze flags and the minimal-j set E
  kOptimal,     ///< optimal DPOR: source sets and wakeup trees (optimal_exploration.cpp)
};

/// Ordering heuristics (heuristics paper, Section 5); the hook applies all but HMS and SGR
/// itself, and those two arrive at the hook as a ranking computed from history.
enum class Heuristic { kFifo, kLifo, kEca, kLca, kLdm, kHdm, kHms, kSgr };

/// Whether to explore the classes systematically or to sample schedules at random, for programs
/// whose classes are too many to explore (sampled_runs.hpp).
enum class Strategy {
  kSystematic,  ///< the reduction's tree: every class
  kRandomWalk,  ///< seeded runs, each a uniformly chosen enabled message at every step
  kPct,         ///< seeded PCT runs (Burckhardt et al., ASPLOS 2010) over messages
  kPortfolio,   ///< the reduction's tree and randomized runs side by side (portfolio_exploration.cpp)
  kPos,         ///< seeded partial order sampling runs (Yuan, Yang, Gu, CAV 2018) over messages
};

/// Whether `strategy` only samples schedules: no exploration of it is ever complete.
constexpr bool is_sampled(Strategy strategy) {
  return strategy == Strategy::kRandomWalk || strategy == Strategy::kPct || strategy == Strategy::kPos;
}

/// In which order a receiver takes the messages it accepts: the hook enables them so, and race
/// analysis knows that a message the order holds behind another does not race with it.
enum class Delivery {
  kUnordered,  ///< any accepted message
  kFifo,       ///< per (sender, receiver) channel, in send order
  kCausal,     ///< a message sent causally before another to the same actor first
};

/// When a timer may fire under exploration. Under kQuiescent a firing depends on everything before
/// it (dependency.hpp: it is on every lane).
enum class Timers {
  kAnytime,    ///< at any step after it was armed: a delivery to its actor like any other
  kQuiescent,  ///< only when nothing else can be delivered, earliest due time first
};

/// Properties of whole paths checked besides each run's own verdict (--check).
struct Checks {
  bool determinism = false;  ///< every completed path must end in the same final state (the session's)
  bool termination = false;  ///< a run cut at the step limit is a bug (a livelock), not a bound
};

/// Its defaults are every command's and the coordinator's.
struct ExplorerOptions {
  Reduction reduction = Reduction::kOptimal;
  bool sleep_sets = true;
  Heuristic heuristic = Heuristic::kFifo;
  std::uint64_t max_paths = 0;  ///< stop handing out work after this many paths (0: no limit); sampled: runs
  Strategy strategy = Strategy::kSystematic;
  std::uint64_t seed = 0;  ///< sampled: run i's seed derives from this and i
  /// PCT's d: d - 1 priority change points per run. By default d - 1 = 2 change points, which find
  /// bugs of up to three ordering constraints with the guaranteed probability.
  std::uint32_t pct_depth = 3;
  Delivery delivery = Delivery::kUnordered;
  Timers timers = Timers::kAnytime;
  Checks checks{};
  /// Optimal DPOR: the configurations an explorer holds before it hands out only the item no other
  /// holds back. Items side by side keep what is explored to the right of one still out (pinned,
  /// configuration_tree.hpp), which grows with the paths; past this many, the explorer takes the
  /// leftmost work only and waits (its other workers, and agents, take subtrees meanwhile).
  /// About 750 bytes each (tests/bench/results-2026-11-29.md); 50,000 held 37 MB on an agent that
  /// then waited seconds for a subtree given away (DESIGN.md).
  std::size_t held_configurations = 10'000;
  /// Optimal DPOR: the steps the analysis of one run reads to make its races' sequences
  /// (v = notdep(e, E).e', quadratic in the run's length), and the events one sequence keeps.
  /// Past either, a sequence stands for its rest with one event (WakeupEvent::rest) and the run
  /// is analysed in part (Stats::analysed_in_part): the exploration is then bounded. A run of
  /// 100,000 steps is analysed in about a second (tests/bench/results-2026-11-29.md).
  std::uint64_t analysis_reads = 200'000'000;
  std::size_t longest_sequence = 1024;
  /// Optimal DPOR: the events its wakeup trees hold, about 50 bytes each. They hold the sequences
  /// still to explore, which on a large program grow with the paths explored; while they hold
  /// this many, sequences for the largest trees are cut short as a long run's are (wakeup_budget.hpp),
  /// until the trees are back under nine tenths of it. The exploration is then bounded
  /// (Stats::cut_for_memory). Most programs never come near it.
  std::uint64_t held_wakeup_events = 250'000;
  /// Explorers of one process that hold held_wakeup_events between them (an agent's leases, each
  /// explored by an explorer of its own): the events each counted last, summed. nullptr: this
  /// explorer's budget is its own. Outlives every explorer made with these options.
  std::atomic<std::uint64_t>* shared_wakeup_events = nullptr;
};

}  // namespace exocheck::engine
