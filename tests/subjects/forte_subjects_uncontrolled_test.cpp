// pipesort, leader, regsim and regsim-2-level started by hand (thread-pool runtime, no control
// channel): each must print its documented result on every run, whatever the thread interleaving.

#include <gtest/gtest.h>

#include <string>

#include "subject_process.hpp"

namespace exocheck::testing {
namespace {

constexpr int kRepetitions = 20;

TEST(PipesortUncontrolled, PrintsTheValuesSortedInStageOrder) {
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("pipesort", {});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "sorted: 10 20 30 40\n");
  }
  const auto longer = run_subject("pipesort", {"--n", "9"});
  EXPECT_EQ(longer.exit_code, 0);
  EXPECT_EQ(longer.out, "sorted: 10 20 30 40 50 60 70 80 90\n");
}

TEST(LeaderUncontrolled, ElectsTheSameLeaderWithTheLargestId) {
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("leader", {});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "leader: node 0 with id 4\n");
  }
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("leader", {"--n", "16"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "leader: node 4 with id 16\n");
  }
}

TEST(LeaderUncontrolled, HonoursGivenIds) {
  const auto result = run_subject("leader", {"--ids", "3,1,2"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, "leader: node 1 with id 3\n");
}

TEST(RegsimUncontrolled, RegistersAndServesEveryClient) {
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("regsim", {"--clients", "20"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "server: 20 registered, 20 served\n");
  }
}

TEST(RegsimTwoLevelUncontrolled, RegistersAndServesEveryClient) {
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("regsim-2-level", {"--clients", "20", "--registrars", "3"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "server: 20 registered, 20 served\n");
  }
}

TEST(ForteSubjectsCommandLine, DefaultsToThePapersParameters) {
  EXPECT_EQ(run_subject("regsim", {}).out, "server: 3 registered, 3 served\n");
  EXPECT_EQ(run_subject("regsim-2-level", {}).out, "server: 3 registered, 3 served\n");
}

TEST(ForteSubjectsCommandLine, RejectsBadValuesWithExitCodeTwo) {
  EXPECT_EQ(run_subject("pipesort", {"--n", "0"}).exit_code, 2);
  EXPECT_EQ(run_subject("leader", {"--n", "0"}).exit_code, 2);
  EXPECT_EQ(run_subject("leader", {"--ids", "1,2,1"}).exit_code, 2);
  EXPECT_EQ(run_subject("leader", {"--ids", "1,0"}).exit_code, 2);
  EXPECT_EQ(run_subject("leader", {"--n", "3", "--ids", "1,2,3"}).exit_code, 2);
  EXPECT_EQ(run_subject("regsim", {"--clients", "0"}).exit_code, 2);
  EXPECT_EQ(run_subject("regsim-2-level", {"--registrars", "0"}).exit_code, 2);
}

}  // namespace
}  // namespace exocheck::testing
