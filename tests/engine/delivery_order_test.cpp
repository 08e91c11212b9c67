// Delivery orders (--delivery fifo|causal): on random programs, every reduction, with and without
// sleep sets, alone, with simulated parallel agents and in split subtrees, reaches exactly what
// exhaustive exploration reaches under the same order; optimal DPOR runs one execution per class
// with one worker. The orders must matter: they change what exhaustive exploration reaches on
// many of the programs, and race analysis prunes what they hold back (fewer runs, never classes).
// With timers too: a firing is held back by nothing sent after its arming.
#include <gtest/gtest.h>

#include <cstdio>

#include "differential.hpp"
#include "exocheck/options/delivery.hpp"
#include "program_generator.hpp"

namespace exocheck::engine::testing {
namespace {

constexpr int kPrograms = 300;

ExplorerOptions with(Reduction reduction, bool sleep, Heuristic heuristic, Delivery delivery) {
  ExplorerOptions options{reduction, sleep, heuristic};
  options.delivery = delivery;
  return options;
}

std::string described(std::uint64_t seed, const ExplorerOptions& options) {
  return describe(seed, options) + ", delivery " + std::string(options::name_of(options.delivery));
}

void expect_every_reduction_reaches_what_exhaustive_reaches(Delivery delivery, std::uint64_t first_seed,
                                                            Features generation = {}, int wanted = kPrograms) {
  int programs = 0;
  int changed_by_order = 0;
  std::uint64_t optimal_blocked = 0;
  for (std::uint64_t seed = first_seed; programs < wanted; ++seed) {
    const Program program = generate_program(seed, generation);
    const Reached unordered = explore(program, {Reduction::kExhaustive, false, Heuristic::kFifo, kLargestSpace + 1});
    if (unordered.stats.paths > kLargestSpace || unordered.stats.paths < 2) continue;
    ++programs;
    const Reached reference = explore(program, with(Reduction::kExhaustive, false, Heuristic::kFifo, delivery));
    changed_by_order += reference.classes != unordered.classes ? 1 : 0;
    const Heuristic heuristic = kHeuristics[seed % 6];
    for (Reduction reduction : {Reduction::kDpor, Reduction::kTransDpor}) {
      for (bool sleep : {false, true}) {
        const auto options = with(reduction, sleep, heuristic, delivery);
        expect_same_reach(reference, explore(program, options), described(seed, options));
      }
    }
    const auto optimal = with(Reduction::kOptimal, true, heuristic, delivery);
    const Reached once = explore(program, optimal);
    expect_same_reach(reference, once, described(seed, optimal));
    EXPECT_EQ(once.stats.paths, once.stats.classes) << described(seed, optimal) << ": an execution repeated a class";
    optimal_blocked += once.stats.sleep_blocked;
    const auto parallel = with(seed % 2 == 0 ? Reduction::kTransDpor : Reduction::kOptimal, true, heuristic, delivery);
    expect_same_reach(reference, explore_in_parallel(program, parallel, 4, seed),
                      described(seed, parallel) + ", 4 agents");
    expect_same_reach(reference, explore_in_subtrees(program, parallel, 4, seed),
                      described(seed, parallel) + ", in subtrees");
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(programs, wanted);
  EXPECT_GT(changed_by_order, wanted / 10) << "the generator must make the order matter";
  std::printf("delivery %s%s: %d programs, %d whose classes the order changes, optimal cut short %llu times\n",
              std::string(options::name_of(delivery)).c_str(), generation.timers ? " with timers" : "", programs,
              changed_by_order, static_cast<unsigned long long>(optimal_blocked));
}

TEST(DeliveryOrder, FifoEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches(Delivery::kFifo, 70001);
}

TEST(DeliveryOrder, CausalEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches(Delivery::kCausal, 80001);
}

// A firing is held back by nothing sent after its arming (delivery_order.hpp), and race analysis
// knows it (race.cpp's ordered_before): a timeout still races the reply it waits for.
TEST(DeliveryOrder, FifoWithTimersEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches(Delivery::kFifo, 90001, {.timers = true}, 100);
}

TEST(DeliveryOrder, CausalWithTimersEveryReductionReachesWhatExhaustiveReaches) {
  expect_every_reduction_reaches_what_exhaustive_reaches(Delivery::kCausal, 100001, {.timers = true}, 100);
}

}  // namespace
}  // namespace exocheck::engine::testing
