// The lock-step schedule exocheck-bench prints as an exploration's own parallelism, on the real
// registry subject: exact rounds for one and for several workers, runs asked for once, the cap.
#include "available_parallelism.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <tuple>

namespace exocheck::bench {
namespace {

const std::string kRegistry = std::string(EXOCHECK_BIN_DIR) + "/registry";

std::vector<std::string> workers(int k) {
  return {"--workers", std::to_string(k)};
}

TEST(LockstepSchedule, OneWorkerNeedsARoundPerExecution) {
  RunCache runs(kRegistry, workers(3));
  const auto schedule = lockstep_schedule(exploration_options(kRegistry, workers(3)), 1, runs, 1000);
  EXPECT_TRUE(schedule.complete);
  EXPECT_EQ(schedule.executions, 24u);
  EXPECT_EQ(schedule.rounds, 24u);
  EXPECT_EQ(schedule.classes, 24u);
  EXPECT_EQ(runs.runs(), 24u);
}

// The first run alone shows the races that open every other path: the small explorations have
// little to run at once.
TEST(LockstepSchedule, TwoWorkersShareTheRoundsTheExplorationAllows) {
  for (const auto& [k, executions, rounds] :
       {std::tuple{2, 6u, 5u}, std::tuple{3, 24u, 13u}, std::tuple{4, 120u, 61u}}) {
    SCOPED_TRACE("registry --workers " + std::to_string(k));
    RunCache runs(kRegistry, workers(k));
    const auto options = exploration_options(kRegistry, workers(k));
    const auto one = lockstep_schedule(options, 1, runs, 1000);
    const auto two = lockstep_schedule(options, 2, runs, 1000);
    EXPECT_TRUE(two.complete);
    EXPECT_EQ(two.executions, executions);
    EXPECT_EQ(two.rounds, rounds);
    EXPECT_EQ(two.classes, one.classes);
    // Both schedules ask for the same runs: the second runs nothing.
    EXPECT_EQ(runs.runs(), executions);
  }
}

TEST(LockstepSchedule, ManyWorkersAreBoundByTheLongestChainOfRuns) {
  RunCache runs(kRegistry, workers(3));
  const auto schedule = lockstep_schedule(exploration_options(kRegistry, workers(3)), 100, runs, 1000);
  EXPECT_TRUE(schedule.complete);
  EXPECT_EQ(schedule.executions, 24u);
  EXPECT_EQ(schedule.rounds, 12u);  // 2x at most, however many cores
  EXPECT_EQ(schedule.classes, 24u);
}

TEST(LockstepSchedule, StopsAtTheCapOnExecutions) {
  RunCache runs(kRegistry, workers(3));
  const auto schedule = lockstep_schedule(exploration_options(kRegistry, workers(3)), 2, runs, 4);
  EXPECT_FALSE(schedule.complete);
  EXPECT_EQ(schedule.executions, 5u);  // rounds of 1, 2 and 2: the one that passed the cap is handed back whole
  EXPECT_EQ(schedule.rounds, 3u);
}

TEST(LockstepSchedule, ASubjectThatCannotBeLaunchedIsAnError) {
  RunCache runs("/nonexistent/subject", {});
  EXPECT_THROW(lockstep_schedule(exploration_options("/nonexistent/subject", {}), 2, runs, 10), std::runtime_error);
}

}  // namespace
}  // namespace exocheck::bench
