// Peer programs written as native subjects: Concuerror's proxy and workers_2 tests and SimGrid's
// centralized mutex, explored with their figures under each delivery order and reduction.
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

TEST_F(ExploreTest, AHundredProxiesGiveTwoClassesWithTheDefaultOptions) {
  if (!built("proxy")) GTEST_SKIP() << "proxy not built";
  const auto f = figures({}, "proxy");
  EXPECT_EQ(f.exit_code, 0) << f.summary.dump(2);
  EXPECT_EQ(f.classes, 2u);
  EXPECT_EQ(f.summary.at("stats").at("sleep_blocked"), 0u);
  EXPECT_EQ(f.summary.at("stats").at("transitions"), 204u);  // 102 deliveries per class
}

// proxy --guarded with 12 proxies: the chain issue 34 names.
const std::vector<std::string> kGuardedChain{"--guarded", "--proxies=12"};

// Each proxy's guard holds the word back until its hop is known. Written as a plain predicate, it
// is learnt about by running: every reversal of a Next and a Word is run and blocked once, so
// executions grow linearly with the chain under every reduction. Written with a view, the hook
// tests it on each proxy's earlier states, and no run is blocked.
TEST_F(ExploreTest, AChainOfGuardedProxiesCostsBlockedRunsOnlyWhereItsGuardsHaveNoView) {
  if (!built("proxy")) GTEST_SKIP() << "proxy not built";
  std::vector<std::string> plain = kGuardedChain;
  plain.push_back("--plain-guards");
  for (const auto& [reduction, executions] :
       {std::pair{"dpor", 22u}, std::pair{"transdpor", 22u}, std::pair{"optimal", 12u}}) {
    const auto f = figures({"--reduction", reduction, "--workers", "1"}, "proxy", plain);
    EXPECT_EQ(f.exit_code, 0) << reduction << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.classes, 2u) << reduction;
    EXPECT_EQ(f.paths + f.summary.at("stats").at("sleep_blocked").get<std::size_t>(), executions) << reduction;
    const auto viewed = figures({"--reduction", reduction, "--workers", "1"}, "proxy", kGuardedChain);
    EXPECT_EQ(viewed.classes, 2u) << reduction;
    EXPECT_EQ(viewed.paths, 2u) << reduction;
    EXPECT_EQ(viewed.summary.at("stats").at("sleep_blocked"), 0u) << reduction;
  }
  EXPECT_EQ(figures({"--delivery", "causal", "--workers", "1"}, "proxy", kGuardedChain).classes, 1u);
  // The default reduction (optimal) needs the fewest: one blocked run per proxy after the first.
  const auto by_default = figures({"--workers", "1"}, "proxy", plain);
  EXPECT_EQ(by_default.summary.at("options").at("reduction"), "optimal");
  EXPECT_EQ(by_default.paths + by_default.summary.at("stats").at("sleep_blocked").get<std::size_t>(), 12u);
}

TEST_F(ExploreTest, WorkersTwoHasConcuerrorsCountUnderFifo) {
  if (!built("workers")) GTEST_SKIP() << "workers not built";
  for (const auto& [delivery, classes] :
       {std::pair{"unordered", 3'072u}, std::pair{"fifo", 1'296u}, std::pair{"causal", 636u}}) {
    for (const std::string reduction : {"transdpor", "optimal"}) {
      const auto f = figures({"--delivery", delivery, "--reduction", reduction, "--workers", "1"}, "workers");
      EXPECT_EQ(f.exit_code, 0) << delivery << " " << reduction << "\n" << f.summary.dump(2);
      EXPECT_EQ(f.classes, classes) << delivery << " " << reduction;
      if (reduction == "optimal") {
        EXPECT_EQ(f.paths, classes) << delivery;
      }
    }
  }
}

TEST_F(ExploreTest, TheCentralizedMutexHasTheSameClassesUnderEveryReduction) {
  if (!built("mutex")) GTEST_SKIP() << "mutex not built";
  for (const std::string reduction : {"dpor", "transdpor", "optimal"}) {
    const auto f = figures({"--reduction", reduction, "--workers", "1"}, "mutex");
    EXPECT_EQ(f.exit_code, 0) << reduction << "\n" << f.summary.dump(2);
    EXPECT_EQ(f.classes, 2'898u) << reduction;
  }
  EXPECT_EQ(figures({"--workers", "1"}, "mutex", {"--clients=2", "--sections=2"}).classes, 28u);
}

}  // namespace
}  // namespace exocheck::explore_test
