// Optimal DPOR within its bounds: with a few configurations held (ExplorerOptions::
// held_configurations), items side by side go only where they pin nothing, and it still reaches
// every class exhaustive exploration reaches, counting each once. A run whose races it analyses
// in part (ExplorerOptions::analysis_reads, longest_sequence) makes the exploration bounded.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "differential.hpp"
#include "paper_programs.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr int kPrograms = 250;

ExplorerOptions bounded(Heuristic heuristic) {
  ExplorerOptions options{Reduction::kOptimal, true, heuristic};
  options.held_configurations = 8;
  return options;
}

/// `every_class`: a run an abort cuts off has classes no reduction reaches (dependency.md, "A run a
/// failure cuts off"); with aborts, only the outcomes are the same.
void expect_bounded_optimal_reaches_what_exhaustive_reaches(const char* what, Features features,
                                                            std::uint64_t first_seed, bool every_class = true) {
  const auto expect_same = [&](const Reached& expected, const Reached& actual, const std::string& name) {
    if (every_class) return expect_same_reach(expected, actual, name);
    EXPECT_EQ(actual.final_states, expected.final_states) << name;
    EXPECT_EQ(actual.deadlocks, expected.deadlocks) << name;
    EXPECT_EQ(actual.failures, expected.failures) << name;
    EXPECT_EQ(actual.stats.classes, actual.classes.size()) << name << ": classes counted";
  };
  int programs = 0;
  std::uint64_t paths = 0, classes = 0, blocked = 0;
  for (std::uint64_t seed = first_seed; programs < kPrograms; ++seed) {
    const Program program = generate_program(seed, features);
    const Reached reference = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    const ExplorerOptions options = bounded(kHeuristics[seed % 6]);
    const std::string name = describe(seed, options) + ", bounded, " + what;
    const Reached alone = explore(program, options, Results::kWithoutPrefix);
    expect_same(reference, alone, name + ", alone");
    const Reached parallel =
        explore_in_parallel(program, options, 2 + static_cast<int>(seed % 5), seed, Results::kWithoutPrefix);
    expect_same(reference, parallel, name + ", in parallel");
    expect_same(reference, explore_in_subtrees(program, options, 4, seed), name + ", in subtrees");
    paths += alone.stats.paths;
    classes += alone.stats.classes;
    blocked += alone.stats.sleep_blocked;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms);
  std::printf(
      "optimal, 8 configurations held, %s: %d programs, alone %llu executions for %llu classes, %llu sleep-blocked\n",
      what, programs, static_cast<unsigned long long>(paths), static_cast<unsigned long long>(classes),
      static_cast<unsigned long long>(blocked));
}

TEST(OptimalBounds, PlainProgramsReachEveryClass) {
  expect_bounded_optimal_reaches_what_exhaustive_reaches("plain", {}, 200001);
}

TEST(OptimalBounds, TimersAndChoicesReachEveryClass) {
  expect_bounded_optimal_reaches_what_exhaustive_reaches("timers and choices", {.timers = true, .choices = true},
                                                         210001);
}

TEST(OptimalBounds, FaultsAndMonitorsReachEveryClass) {
  expect_bounded_optimal_reaches_what_exhaustive_reaches(
      "faults and monitors", {.monitors = true, .faults = {.crashes = 1, .losses = 1, .duplicates = 1}}, 220001);
}

TEST(OptimalBounds, AbortsReachEveryClass) {
  expect_bounded_optimal_reaches_what_exhaustive_reaches("aborts", {.aborts = true}, 230001, false);
}

// Sequences cut short: the runs they came from are analysed in part, which the exploration says
// (never "explored completely"), and what it reaches is still classes of the program.
TEST(OptimalBounds, RunsAnalysedInPartMakeTheExplorationBounded) {
  const Program program = registry_program(3);
  const Reached all = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo});
  ExplorerOptions options{Reduction::kOptimal, true, Heuristic::kFifo};
  options.longest_sequence = 1;
  options.analysis_reads = 2;
  Explorer explorer(options);
  std::uint64_t runs = 0;
  while (auto item = explorer.next()) {
    explorer.complete(item->id, run_item(program, *item, options));
    ++runs;
  }
  EXPECT_GT(explorer.stats().analysed_in_part, 0u);
  EXPECT_LE(explorer.stats().analysed_in_part, runs);
  EXPECT_FALSE(explorer.explored_completely());
  EXPECT_TRUE(explorer.finished());
  EXPECT_LE(explorer.stats().classes, all.stats.classes);
  // Within bounds, the same program is explored completely.
  const Reached whole = explore(program, {Reduction::kOptimal, true, Heuristic::kFifo});
  EXPECT_EQ(whole.stats.analysed_in_part, 0u);
  EXPECT_EQ(whole.classes, all.classes);
}

// Wakeup trees at their budget of events: sequences are cut short, as a long run's are, and the
// exploration says it is bounded. Every random program's exploration ends, and what it reaches
// are classes of the program.
bool explored_completely(const Program& program, const ExplorerOptions& options) {
  Explorer explorer(options);
  while (auto item = explorer.next()) explorer.complete(item->id, run_item(program, *item, options));
  EXPECT_TRUE(explorer.finished());
  return explorer.explored_completely();
}

bool reaches_only_classes_of(const Reached& all, const Reached& reached) {
  return std::includes(all.classes.begin(), all.classes.end(), reached.classes.begin(), reached.classes.end());
}

TEST(OptimalBounds, WakeupTreesAtTheirBudgetMakeTheExplorationBounded) {
  const Program program = registry_program(3);
  const Reached all = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo});
  ExplorerOptions options{Reduction::kOptimal, true, Heuristic::kFifo};
  options.held_wakeup_events = 1;
  const Reached cut = explore(program, options);
  EXPECT_GT(cut.stats.cut_for_memory, 0u);
  EXPECT_EQ(cut.stats.analysed_in_part, 0u);
  EXPECT_TRUE(reaches_only_classes_of(all, cut));
  EXPECT_FALSE(explored_completely(program, options));
  // Within its budget, the same program is explored completely.
  const ExplorerOptions within{Reduction::kOptimal, true, Heuristic::kFifo};
  const Reached whole = explore(program, within);
  EXPECT_EQ(whole.stats.cut_for_memory, 0u);
  EXPECT_EQ(whole.classes, all.classes);
  EXPECT_TRUE(explored_completely(program, within));

  int programs = 0, cut_short = 0;
  std::uint64_t classes = 0, reached_classes = 0;
  for (std::uint64_t seed = 240001; programs < kPrograms; ++seed) {
    const Program random = generate_program(seed, {.timers = true, .choices = true});
    const Reached reference = explore(random, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    ExplorerOptions tight{Reduction::kOptimal, true, kHeuristics[seed % 6]};
    tight.held_wakeup_events = 0;  // cut short from the first run on
    const Reached reached = explore(random, tight);
    const std::string name = describe(seed, tight) + ", no wakeup events held";
    classes += reference.classes.size();
    reached_classes += reached.classes.size();
    EXPECT_TRUE(reaches_only_classes_of(reference, reached)) << name;
    if (reached.stats.cut_for_memory != 0) {
      ++cut_short;
      EXPECT_FALSE(explored_completely(random, tight)) << name;
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(cut_short, kPrograms / 5);  // 53: the others race with no step between
  std::printf("optimal, sequences cut short from the first run: %d programs, %d cut short, %llu of %llu classes\n",
              programs, cut_short, static_cast<unsigned long long>(reached_classes),
              static_cast<unsigned long long>(classes));
}

// An agent's leases are explored by an explorer each, which share one budget: each counts its own
// trees, and cuts while their sum holds the budget, as one explorer cuts at its own.
TEST(OptimalBounds, ExplorersSharingABudgetCutWhileTheirSumHoldsIt) {
  const Program program = registry_program(3);
  const Reached all = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo});
  ExplorerOptions options{Reduction::kOptimal, true, Heuristic::kFifo};
  options.held_wakeup_events = 64;  // every tree that holds an event is among the largest
  std::atomic<std::uint64_t> shared{0};
  options.shared_wakeup_events = &shared;
  const Reached alone = explore(program, options);
  EXPECT_EQ(alone.stats.cut_for_memory, 0u) << "within the budget alone";
  EXPECT_EQ(alone.classes, all.classes);
  EXPECT_EQ(shared.load(), 0u) << "an explorer's part goes with it";

  shared.store(64);  // the other explorers hold the budget
  const Reached sharing = explore(program, options);
  EXPECT_GT(sharing.stats.cut_for_memory, 0u);
  EXPECT_TRUE(reaches_only_classes_of(all, sharing));
  EXPECT_FALSE(explored_completely(program, options));
  EXPECT_EQ(shared.load(), 64u) << "the others' part is left as it was";
}

}  // namespace
}  // namespace exocheck::engine::testing
