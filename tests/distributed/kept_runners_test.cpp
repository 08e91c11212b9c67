// Runners kept from one exploration to the next by a local agent that serves them in turn
// (exocheck-agent keeps its slots' runners from job to job the same way): the subject's fork server
// starts once for all of them, and every exploration finds what a fresh one finds.

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon_processes.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "local_agent.hpp"

namespace exocheck::distributed_test {
namespace {

struct Explored {
  std::uint64_t classes = 0, executions = 0;
  agent::RunnerCounters runs;
};

Explored explore(const std::vector<std::string>& args, agent::LocalAgent& local) {
  coordinator::ExplorationOptions options;
  options.explorer.reduction = engine::Reduction::kTransDpor;
  options.explorer.sleep_sets = true;
  options.subject = (bin_dir() / "registry").string();
  options.args = args;
  coordinator::ExplorationSession session(options);
  Explored explored;
  local.serve(session);
  while (!local.wait_for(std::chrono::milliseconds(50))) {
  }
  explored.runs = local.stats().runs;
  EXPECT_EQ(session.verdict(), coordinator::Verdict::kCompleteNoBug);
  explored.classes = session.progress().stats.classes;
  explored.executions = session.progress().stats.paths + session.progress().stats.sleep_blocked;
  return explored;
}

TEST(KeptRunners, ExploreTheSameSubjectAgainWithoutStartingIt) {
  agent::LocalAgent local({.workers = 1});
  const auto first = explore({"--workers", "3"}, local);
  EXPECT_EQ(first.classes, 24u);
  EXPECT_EQ(first.runs.server_starts, 1u);
  EXPECT_EQ(first.runs.served_runs(), first.executions);
  for (int again = 0; again < 2; ++again) {
    const auto next = explore({"--workers", "3"}, local);
    EXPECT_EQ(next.classes, 24u);
    EXPECT_EQ(next.executions, first.executions);
    EXPECT_EQ(next.runs.server_starts, 0u);  // the stats are the exploration's own, not the runner's since its start
    EXPECT_EQ(next.runs.served_runs(), next.executions);
  }
}

TEST(KeptRunners, ServeAnotherInvocationFromAServerOfItsOwn) {
  agent::LocalAgent local({.workers = 1});
  const auto two = explore({}, local);
  EXPECT_EQ(two.classes, 6u);
  const auto three = explore({"--workers", "3"}, local);
  EXPECT_EQ(three.classes, 24u);
  EXPECT_EQ(three.runs.server_starts, 1u);
  EXPECT_EQ(explore({}, local).runs.server_starts, 1u);  // a runner keeps one server
}

TEST(KeptRunners, EveryWorkerServesEverySession) {
  // More workers than results at first: each session starts with one lease out, and every worker
  // waits for the next session before it takes part (a worker left in the last one would explore
  // nothing, or the wrong session).
  agent::LocalAgent local({.workers = 3});
  std::uint64_t starts = 0;
  for (int session = 0; session < 4; ++session) {
    const auto explored = explore({"--workers", "4"}, local);
    EXPECT_EQ(explored.classes, 120u);
    EXPECT_EQ(explored.runs.served_runs(), explored.executions);
    EXPECT_EQ(explored.runs.process_runs, 0u);
    starts += explored.runs.server_starts;
  }
  EXPECT_GE(starts, 1u);
  EXPECT_LE(starts, 3u);  // at most one per worker, for all four sessions
}

TEST(KeptRunners, ASessionIsHandedOverOnlyOnceTheLastOneIsOver) {
  // pi 6, DPOR with LCA and without sleep sets: far more than 500,000 paths, longer than this test.
  coordinator::ExplorationOptions options;
  options.explorer.reduction = engine::Reduction::kDpor;
  options.explorer.heuristic = engine::Heuristic::kLca;
  options.explorer.sleep_sets = false;
  options.subject = (bin_dir() / "pi").string();
  options.args = {"--workers", "6"};
  coordinator::ExplorationSession running(options);
  coordinator::ExplorationSession next(options);  // both outlive the agent: it serves them
  agent::LocalAgent local({.workers = 1});
  EXPECT_TRUE(local.wait_for(std::chrono::milliseconds(0)));  // nothing served yet
  local.serve(running);
  EXPECT_THROW(local.serve(next), std::logic_error);
  EXPECT_FALSE(local.wait_for(std::chrono::milliseconds(200)));
  running.stop();
  while (!local.wait_for(std::chrono::milliseconds(50))) {
  }
  EXPECT_EQ(running.verdict(), coordinator::Verdict::kLimitReached);
  EXPECT_GT(local.stats().runs.served_runs(), 0u);
  local.serve(next);  // and destroyed while it explores: the destructor stops it
}

}  // namespace
}  // namespace exocheck::distributed_test
