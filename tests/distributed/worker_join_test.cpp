// When the local agent's workers start their fork servers: at once when every worker has a CPU
// of its own (another start costs the others nothing, and is given up if the exploration ends
// first); else only once the exploration has proved long enough to pay for another start.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "cpu_pinning.hpp"
#include "daemon_processes.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "local_agent.hpp"

namespace exocheck::distributed_test {
namespace {

struct Explored {
  coordinator::Verdict verdict = coordinator::Verdict::kRunning;
  std::uint64_t classes = 0;
  agent::RunnerCounters runs;
};

// registry (K=2: 6 runs, far fewer than a worker waits for before it starts another server).
Explored explore_registry(std::size_t workers) {
  coordinator::ExplorationOptions options;
  options.explorer.reduction = engine::Reduction::kTransDpor;
  options.explorer.sleep_sets = true;
  options.subject = (bin_dir() / "registry").string();
  coordinator::ExplorationSession session(options);
  Explored explored;
  {
    agent::LocalAgent local(session, {.workers = workers});
    while (!local.wait_for(std::chrono::milliseconds(50))) {
    }
    explored.runs = local.stats().runs;
  }
  explored.verdict = session.verdict();
  explored.classes = session.progress().stats.classes;
  return explored;
}

TEST(WorkerJoin, WorkersWithACpuEachStartTheirServersAtOnce) {
  const std::size_t cpus = agent::allowed_cpus().size();
  if (cpus < 2) GTEST_SKIP() << "one CPU: no worker can have one of its own besides the first";
  const auto explored = explore_registry(2);
  EXPECT_EQ(explored.verdict, coordinator::Verdict::kCompleteNoBug);
  EXPECT_EQ(explored.classes, 6u);
  // The second worker's start began at once, whether it was ready before the end or given up.
  EXPECT_EQ(explored.runs.server_starts, 2u);
  EXPECT_EQ(explored.runs.served_runs(), 6u);
  EXPECT_EQ(explored.runs.process_runs, 0u);
}

TEST(WorkerJoin, WorkersSharingCpusWaitForTheExplorationToProveLong) {
  const std::size_t workers = agent::allowed_cpus().size() + 1;
  const auto explored = explore_registry(workers);
  EXPECT_EQ(explored.verdict, coordinator::Verdict::kCompleteNoBug);
  EXPECT_EQ(explored.classes, 6u);
  // 6 runs are fewer than kResultsPerExtraServer: the first worker's server did them all.
  EXPECT_EQ(explored.runs.server_starts, 1u);
  EXPECT_EQ(explored.runs.served_runs(), 6u);
}

}  // namespace
}  // namespace exocheck::distributed_test
