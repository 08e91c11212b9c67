// Runners kept from one exploration to the next (LocalAgentOptions::kept_runners; exocheck-agent
// keeps its slots' runners from job to job the same way): the subject's fork server starts once
// for all of them, and every exploration finds what a fresh one finds.

#include <gtest/gtest.h>

#include <chrono>
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

Explored explore(const std::vector<std::string>& args, std::vector<agent::Runner>& kept) {
  coordinator::ExplorationOptions options;
  options.explorer.reduction = engine::Reduction::kTransDpor;
  options.explorer.sleep_sets = true;
  options.subject = (bin_dir() / "registry").string();
  options.args = args;
  coordinator::ExplorationSession session(options);
  Explored explored;
  {
    agent::LocalAgent local(session, {.workers = 1, .kept_runners = &kept});
    while (!local.wait_for(std::chrono::milliseconds(50))) {
    }
    explored.runs = local.stats().runs;
  }
  EXPECT_EQ(session.verdict(), coordinator::Verdict::kCompleteNoBug);
  explored.classes = session.progress().stats.classes;
  explored.executions = session.progress().stats.paths + session.progress().stats.sleep_blocked;
  return explored;
}

TEST(KeptRunners, ExploreTheSameSubjectAgainWithoutStartingIt) {
  std::vector<agent::Runner> kept;
  const auto first = explore({"--workers", "3"}, kept);
  EXPECT_EQ(first.classes, 24u);
  EXPECT_EQ(first.runs.server_starts, 1u);
  EXPECT_EQ(first.runs.served_runs(), first.executions);
  for (int again = 0; again < 2; ++again) {
    const auto next = explore({"--workers", "3"}, kept);
    EXPECT_EQ(next.classes, 24u);
    EXPECT_EQ(next.executions, first.executions);
    EXPECT_EQ(next.runs.server_starts, 0u);  // the stats are the exploration's own, not the runner's since its start
    EXPECT_EQ(next.runs.served_runs(), next.executions);
  }
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].counters().server_starts, 1u);
  EXPECT_EQ(kept[0].counters().served_runs(), 3 * first.executions);
  // The worker's report stays with the runner: the next exploration writes into its buffers. The
  // last run, clean, went to the worker's decoder as bytes: its steps, 0 to the last.
  const auto& report = kept[0].kept_report();
  EXPECT_TRUE(report.events_taken);
  EXPECT_TRUE(report.events.empty());
  EXPECT_EQ(report.deferred_event_ends.size(), report.result.steps() + 1);
  EXPECT_EQ(report.deferred_events.size(), report.deferred_event_ends.back());
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED);
}

TEST(KeptRunners, ServeAnotherInvocationFromAServerOfItsOwn) {
  std::vector<agent::Runner> kept;
  const auto two = explore({}, kept);
  EXPECT_EQ(two.classes, 6u);
  const auto three = explore({"--workers", "3"}, kept);
  EXPECT_EQ(three.classes, 24u);
  EXPECT_EQ(three.runs.server_starts, 1u);
  EXPECT_EQ(explore({}, kept).runs.server_starts, 1u);  // a runner keeps one server
}

}  // namespace
}  // namespace exocheck::distributed_test
