#pragma once
// Explores a data program with the engine, one worker or several simulated ones.

#include <cstdint>
#include <set>
#include <string>

#include "exocheck/engine/explorer.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/reduction.hpp"
#include "program.hpp"

namespace exocheck::engine::testing {

// The tests label their cases with the option tables' names.
using options::name_of;

/// What an exploration reached, for differential comparison.
struct Reached {
  Stats stats;
  std::set<std::string> classes;       ///< canonical forms of the paths' classes (divergences aside)
  std::set<ClassKey> class_keys;       ///< the classes' keys (class_key.hpp)
  std::set<std::string> final_states;  ///< final states of completed paths
  std::set<std::string> deadlocks;     ///< canonical forms of deadlocked paths
  std::set<std::string> failures;      ///< failed checks, each by the causal past of its step
  std::uint64_t cut_off = 0;           ///< runs a failure ended in a step with something else enabled
};

/// How runs are handed to the engine: whole, or without the steps of their prefix (as agents
/// send them; HMS and SGR runs stay whole).
enum class Results { kWhole, kWithoutPrefix };

/// Runs `item` as an agent would: its prefix, its sleep set, then `explorer`'s heuristic, messages
/// enabled in `explorer`'s delivery order.
Execution run_item(const Program& program, const WorkItem& item, const ExplorerOptions& explorer = {});

/// Explores sequentially: one item out at a time, depth-first.
Reached explore(const Program& program, ExplorerOptions options, Results results = Results::kWhole);

/// Explores with `workers` simulated agents returning results in a seeded random order.
Reached explore_in_parallel(const Program& program, ExplorerOptions options, int workers, std::uint64_t seed,
                            Results results = Results::kWhole);

/// Explores with explorers that split subtrees off one another at random (Explorer::split),
/// at most `explorers` at once, each with a few items out, results (whole or without their
/// prefix) and backtrack requests delivered in a seeded random order: what agents exploring
/// subtrees of their own do.
/// `splits`, when given, gets how many subtrees were split off.
Reached explore_in_subtrees(const Program& program, ExplorerOptions options, int explorers, std::uint64_t seed,
                            int* splits = nullptr);

}  // namespace exocheck::engine::testing
