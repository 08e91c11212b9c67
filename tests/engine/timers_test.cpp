// Timers (one-shot, periodic, cancelled, call timeouts) in both semantics: where a timer may fire at
// any step after it was armed (a delivery to its own actor), and where it fires only when nothing
// else can be delivered, earliest due time first (a firing on every lane). On random programs with
// timers, every reduction, with and without sleep sets, alone, with simulated parallel agents and
// in split subtrees, reaches what exhaustive exploration reaches under the same semantics; optimal
// DPOR runs one execution per class with one worker.
#include <gtest/gtest.h>

#include <cstdio>

#include "differential.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr int kPrograms = 300;

struct Use {
  int periodic = 0, cancels = 0, timeouts = 0;
};

// How much of the timers' model the generated programs exercise (counted on their actions).
Use use_of(const Program& program) {
  Use use;
  const auto count = [&](const Handler& h) {
    for (const auto& action : h) {
      use.periodic += action.op == Action::Op::kEvery ? 1 : 0;
      use.cancels += action.op == Action::Op::kCancel ? 1 : 0;
      use.timeouts += action.op == Action::Op::kCall && action.timeout >= 0 ? 1 : 0;
    }
  };
  for (const auto& type : program.types) {
    count(type.constructor);
    for (const auto& [message, handler] : type.handlers) count(handler);
    for (const auto& continuation : type.continuations) count(continuation);
  }
  return use;
}

ExplorerOptions with(Reduction reduction, bool sleep, Heuristic heuristic, Timers timers, std::uint64_t max_paths = 0) {
  ExplorerOptions options{reduction, sleep, heuristic, max_paths};
  options.timers = timers;
  return options;
}

std::string described(std::uint64_t seed, const ExplorerOptions& options) {
  return describe(seed, options) + (options.timers == Timers::kQuiescent ? ", timers quiescent" : ", timers anytime");
}

void expect_every_reduction_reaches_what_exhaustive_reaches(Timers timers, std::uint64_t first_seed,
                                                            bool quiescent_timers = false) {
  int programs = 0, with_periodic = 0, with_cancel = 0, with_timeout = 0;
  std::uint64_t optimal_blocked = 0;
  for (std::uint64_t seed = first_seed; programs < kPrograms; ++seed) {
    const Program program = generate_program(seed, {.timers = true, .quiescent_timers = quiescent_timers});
    const Reached reference =
        explore(program, with(Reduction::kExhaustive, false, Heuristic::kFifo, timers, kLargestSpace + 1));
    if (reference.stats.paths > kLargestSpace || reference.stats.paths < 2) continue;
    ++programs;
    const Use use = use_of(program);
    with_periodic += use.periodic > 0 ? 1 : 0;
    with_cancel += use.cancels > 0 ? 1 : 0;
    with_timeout += use.timeouts > 0 ? 1 : 0;
    const Heuristic heuristic = kHeuristics[seed % 6];
    for (Reduction reduction : {Reduction::kDpor, Reduction::kTransDpor}) {
      for (bool sleep : {false, true}) {
        const auto options = with(reduction, sleep, heuristic, timers);
        expect_same_reach(reference, explore(program, options), described(seed, options));
      }
    }
    const auto optimal = with(Reduction::kOptimal, true, heuristic, timers);
    const Reached once = explore(program, optimal);
    expect_same_reach(reference, once, described(seed, optimal));
    EXPECT_EQ(once.stats.paths, once.stats.classes) << described(seed, optimal) << ": an execution repeated a class";
    optimal_blocked += once.stats.sleep_blocked;
    const auto parallel = with(seed % 2 == 0 ? Reduction::kTransDpor : Reduction::kOptimal, true, heuristic, timers);
    expect_same_reach(reference, explore_in_parallel(program, parallel, 4, seed),
                      described(seed, parallel) + ", 4 agents");
    expect_same_reach(reference, explore_in_subtrees(program, parallel, 4, seed),
                      described(seed, parallel) + ", in subtrees");
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, kPrograms);
  EXPECT_GT(with_periodic, kPrograms / 10);
  EXPECT_GT(with_cancel, kPrograms / 10);
  EXPECT_GT(with_timeout, kPrograms / 10);
  std::printf(
      "timers %s: %d programs (periodic timers in %d, cancels in %d, call timeouts in %d), optimal cut short "
      "%llu times\n",
      timers == Timers::kQuiescent ? "quiescent" : "anytime", programs, with_periodic, with_cancel, with_timeout,
      static_cast<unsigned long long>(optimal_blocked));
}

TEST(Timers, AnytimeEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches(Timers::kAnytime, 90001);
}

TEST(Timers, QuiescentEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches(Timers::kQuiescent, 95001);
}

// Timers that may fire at any step beside one-shot timers sent quiescent (delivered only when
// nothing else can be, on every lane), as a CAF stream's ticks and caf_main's awaits are.
TEST(Timers, MixedQuiescentEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches(Timers::kAnytime, 97001, true);
}

}  // namespace
}  // namespace exocheck::engine::testing
