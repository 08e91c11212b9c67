// End to end over loopback with real processes: a coordinator daemon, agent daemons, and the
// client library `exocheck explore --coordinator` uses. The reference is the embedded explorer
// (the same session, run by one local worker thread).

#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "coordinator_client.hpp"
#include "daemon_processes.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/coordinator/exploration_settings.hpp"
#include "local_agent.hpp"
#include "sha256.hpp"

namespace exocheck::distributed_test {
namespace {

using std::chrono::milliseconds;

/// What must not depend on how many agents ran the exploration.
struct Outcome {
  proto::JobState state = proto::JOB_QUEUED;
  std::uint64_t classes = 0;
  std::set<std::string> bugs;  ///< "STATUS: detail"

  bool operator==(const Outcome&) const = default;
};

std::string subject(const std::string& name) {
  return (bin_dir() / name).string();
}

std::string bug_key(proto::RunStatus status, const std::string& detail) {
  return proto::RunStatus_Name(status) + ": " + detail;
}

proto::SubmitRequest pi_submission(const std::string& sha) {
  proto::SubmitRequest request;
  request.set_subject(subject("pi"));
  request.add_args("--workers");
  request.add_args("4");
  request.set_sha256(sha);
  auto& settings = *request.mutable_settings();
  settings.set_reduction(proto::REDUCTION_DPOR);
  settings.set_heuristic(proto::FIFO);
  settings.set_sleep_sets(true);
  settings.set_keep_going(true);
  settings.set_run_timeout_ms(10'000);
  return request;
}

// The embedded one-worker run of the same submission.
Outcome embedded_outcome(const proto::SubmitRequest& request) {
  coordinator::ExplorationSession session(coordinator::to_job_settings(request).exploration);
  {
    agent::LocalAgent local(session, {.workers = 1});
    while (!local.wait_for(milliseconds(50))) {
    }
  }
  Outcome outcome;
  outcome.state =
      session.verdict() == coordinator::Verdict::kBugFound ? proto::JOB_BUG_FOUND : proto::JOB_COMPLETE_NO_BUG;
  outcome.classes = session.progress().stats.classes;
  for (const auto& bug : session.bugs()) outcome.bugs.insert(bug_key(bug.status, bug.detail));
  return outcome;
}

Outcome remote_outcome(agent::CoordinatorClient& client, std::uint64_t job, const proto::JobProgress& last) {
  Outcome outcome;
  outcome.state = last.state();
  outcome.classes = last.classes();
  for (const auto& bug : client.bugs(job)) outcome.bugs.insert(bug_key(bug.status(), bug.detail()));
  return outcome;
}

class LoopbackTest : public testing::Test {
 protected:
  // The final progress of `request` on the cluster; `on_update` sees every update.
  proto::JobProgress explore(const proto::SubmitRequest& request,
                             const std::function<void(const proto::JobProgress&)>& on_update = {}) {
    job = client.submit(request);
    return client.watch(job, [&](const proto::JobProgress& update) {
      if (on_update) on_update(update);
    });
  }

  LoopbackCluster cluster;
  agent::CoordinatorClient client{cluster.address(), milliseconds(5'000)};
  std::uint64_t job = 0;
  const std::string pi_sha = agent::sha256_of_file(subject("pi"));
};

TEST_F(LoopbackTest, TwoAgentsFindWhatOneEmbeddedWorkerFinds) {
  cluster.start_agent("a1");
  cluster.start_agent("a2");
  cluster.wait_for_agents(2);
  // pi on 5 workers, LCA without sleep sets: enough paths (thousands) that both agents get work
  // before the end, even on a loaded machine (4 workers were once done by one agent in 0.6 s).
  auto request = pi_submission(pi_sha);
  request.set_args(1, "5");
  request.mutable_settings()->set_heuristic(proto::LCA);
  request.mutable_settings()->set_sleep_sets(false);
  std::uint32_t most_agents = 0;
  const auto last = explore(request, [&](const auto& update) { most_agents = std::max(most_agents, update.agents()); });
  const auto expected = embedded_outcome(request);
  EXPECT_EQ(expected.classes, 120u) << "pi with 5 workers: the master receives 5 results in any order";
  EXPECT_EQ(remote_outcome(client, job, last), expected) << cluster.coordinator_log();
  EXPECT_EQ(most_agents, 2u);
  EXPECT_GT(last.subtrees(), 1u) << "the second agent explored a subtree split off the first's";
  EXPECT_EQ(last.outstanding(), 0u);
}

TEST_F(LoopbackTest, FourAgentsSplitTheTreeWithLittleRedundancy) {
  for (const auto* name : {"a1", "a2", "a3", "a4"}) cluster.start_agent(name);
  cluster.wait_for_agents(4);
  // pi on 5 workers, DPOR and LCA without sleep sets: 19,845 paths with one worker.
  auto request = pi_submission(pi_sha);
  request.set_args(1, "5");
  request.mutable_settings()->set_heuristic(proto::LCA);
  request.mutable_settings()->set_sleep_sets(false);
  const auto last = explore(request);
  EXPECT_EQ(remote_outcome(client, job, last), embedded_outcome(request)) << cluster.coordinator_log();
  EXPECT_GT(last.subtrees(), 3u) << "every agent explored a part";
  EXPECT_GE(last.paths(), 19'845u);
  EXPECT_LE(last.paths(), 19'845u * 105 / 100) << "redundancy at most 1.05";
}

TEST_F(LoopbackTest, AgentKilledMidwayAndRestartedChangesNothing) {
  const auto first = cluster.start_agent("a1");
  cluster.start_agent("a2");
  cluster.wait_for_agents(2);
  // LCA without sleep sets on 5 workers: 19,845 paths. At 27,000 runs a second per agent they
  // once ended before the coordinator's first 250 ms progress update; 300,000 intervals make each
  // run compute for longer (about 5,000 runs a second here), so the kill lands mid-way on a faster
  // machine too. The paths and classes do not depend on the intervals.
  auto request = pi_submission(pi_sha);
  request.set_args(1, "5");
  request.add_args("--intervals");
  request.add_args("300000");
  request.mutable_settings()->set_heuristic(proto::LCA);
  request.mutable_settings()->set_sleep_sets(false);
  bool killed = false;
  std::uint64_t paths_at_kill = 0;
  const auto last = explore(request, [&](const proto::JobProgress& update) {
    if (!killed && update.paths() >= 3) {
      cluster.kill_agent(first);
      cluster.start_agent("a1-restarted");
      killed = true;
      paths_at_kill = update.paths();
    }
  });
  ASSERT_TRUE(killed) << "the exploration ended before the kill";
  EXPECT_GT(last.paths(), paths_at_kill) << "the kill came mid-way";
  EXPECT_EQ(remote_outcome(client, job, last), embedded_outcome(request)) << cluster.coordinator_log();
}

TEST_F(LoopbackTest, SubjectMissingOnTheAgentFailsTheJobClearly) {
  cluster.start_agent("a1");
  auto request = pi_submission(pi_sha);
  request.set_subject("/nonexistent/pi");
  const auto last = explore(request);
  EXPECT_EQ(last.state(), proto::JOB_FAILED);
  EXPECT_EQ(last.error(),
            "no agent can run the subject: agent a1: subject /nonexistent/pi does not exist on this agent");
  EXPECT_EQ(last.paths(), 0u);
}

TEST_F(LoopbackTest, DifferentBuildOnTheAgentIsRefused) {
  cluster.start_agent("a1");
  const auto other_sha = agent::sha256_of_file(subject("registry"));
  const auto last = explore(pi_submission(other_sha));
  EXPECT_EQ(last.state(), proto::JOB_FAILED);
  EXPECT_EQ(last.error(), "no agent can run the subject: agent a1: subject " + subject("pi") +
                              " is a different build here: sha256 " + pi_sha + ", the job's is " + other_sha);
  EXPECT_EQ(last.paths(), 0u);
}

TEST_F(LoopbackTest, SubjectNotLinkedWithTheHookFailsTheJob) {
  cluster.start_agent("a1");
  auto request = pi_submission(agent::sha256_of_file(subject("fault_not_linked")));
  request.set_subject(subject("fault_not_linked"));
  const auto last = explore(request);
  EXPECT_EQ(last.state(), proto::JOB_FAILED);
  // Refused from the file, before the agent runs anything of it.
  EXPECT_EQ(last.error(), "no agent can run the subject: agent a1: " + subject("fault_not_linked") +
                              " is not linked with the exocheck hook and uses no actor framework exocheck attaches "
                              "to (CAF's libcaf_core): link it with exocheck::hook, or build it with CAF; nothing "
                              "was run");
  EXPECT_EQ(last.paths(), 0u);
}

TEST_F(LoopbackTest, BadSettingsAreRefusedAtSubmission) {
  auto request = pi_submission(pi_sha);
  request.mutable_settings()->set_heuristic(static_cast<proto::Heuristic>(99));
  try {
    client.submit(request);
    FAIL() << "no exception";
  } catch (const agent::CoordinatorError& error) {
    EXPECT_EQ(std::string(error.what()),
              "coordinator at " + cluster.address() + ": submit refused: unknown heuristic number 99");
  }
}

TEST_F(LoopbackTest, TheNextJobWaitsForTheFirst) {
  cluster.start_agent("a1", 2);
  const auto first = client.submit(pi_submission(pi_sha));
  const auto second = client.submit(pi_submission(pi_sha));
  std::vector<proto::JobState> second_states;
  const auto last = client.watch(second, [&](const proto::JobProgress& update) {
    if (second_states.empty() || second_states.back() != update.state()) second_states.push_back(update.state());
  });
  // RUNNING may fall between two updates; QUEUED comes first because the first job is running.
  ASSERT_GE(second_states.size(), 2u);
  EXPECT_EQ(second_states.front(), proto::JOB_QUEUED);
  EXPECT_EQ(second_states.back(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(last.classes(), 24u);
  EXPECT_EQ(client.watch(first, [](const proto::JobProgress&) {}).state(), proto::JOB_COMPLETE_NO_BUG);
}

// The agent keeps its slots' fork servers from job to job: a subject rebuilt in between (a new
// file renamed over the old, as a linker does) must be explored as rebuilt, not by the old build's
// server.
TEST_F(LoopbackTest, ASubjectRebuiltBetweenJobsIsExploredAsRebuilt) {
  const auto dir = std::filesystem::temp_directory_path() / ("exocheck-loopback-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string installed = (dir / "subject").string();
  const auto install = [&](const std::string& built) {
    std::filesystem::copy_file(built, installed + ".next", std::filesystem::copy_options::overwrite_existing);
    std::filesystem::rename(installed + ".next", installed);
  };
  cluster.start_agent("a1", 1, dir);
  install(subject("pi"));
  auto request = pi_submission(pi_sha);
  request.set_subject(installed);
  const auto pi = explore(request);
  EXPECT_EQ(pi.state(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(pi.classes(), 24u);

  install(subject("registry"));
  request.set_sha256(agent::sha256_of_file(subject("registry")));
  const auto registry = explore(request);  // registry --workers 4
  EXPECT_EQ(registry.state(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(registry.classes(), 120u);  // the 5! orders of the registrations
  std::filesystem::remove_all(dir);
}

TEST(CoordinatorRestart, AJobGoesOnThroughAKillAndRestartFromTheStateDir) {
  LoopbackCluster cluster(/*journaled=*/true);
  cluster.start_agent("a1");
  cluster.start_agent("a2");
  cluster.wait_for_agents(2);
  // pi on 5 workers, DPOR and LCA without sleep sets: 19,845 paths with one worker; 300,000
  // intervals keep them seconds long on a fast machine too (see AgentKilledMidway...).
  auto request = pi_submission(agent::sha256_of_file(subject("pi")));
  request.set_args(1, "5");
  request.add_args("--intervals");
  request.add_args("300000");
  request.mutable_settings()->set_heuristic(proto::LCA);
  request.mutable_settings()->set_sleep_sets(false);
  agent::CoordinatorClient client{cluster.address(), milliseconds(5'000)};
  const auto job = client.submit(request);
  bool restarted = false;
  std::uint64_t paths_at_kill = 0;
  const auto last = client.watch(job, [&](const proto::JobProgress& update) {
    if (restarted || update.paths() < 2'000) return;
    paths_at_kill = update.paths();
    cluster.restart_coordinator();  // this watch breaks, and the client watches again
    restarted = true;
  });
  ASSERT_TRUE(restarted) << "the exploration ended before the kill";
  EXPECT_GT(last.paths(), paths_at_kill) << "the kill came mid-way";
  EXPECT_EQ(remote_outcome(client, job, last), embedded_outcome(request)) << cluster.coordinator_log();
  EXPECT_NE(cluster.coordinator_log().find("records replayed"), std::string::npos);
  // The agents explored on through the restart and took their subtrees back: nothing explored
  // twice beyond the redundancy of splitting.
  EXPECT_LE(last.paths(), 19'845u * 105 / 100) << cluster.coordinator_log();
}

// Optimal DPOR split over two agents sends backtrack requests to the lease owning their
// configuration; the coordinator forgets those its agent has received (RoutedDelivered in the
// journal). Killed and restarted mid-job, it sends again only the others, and nothing is lost.
/// An optimal exploration over two agents, its coordinator restarted mid-job; `coordinator_args`
/// go to the coordinator.
void optimal_job_through_a_restart(const std::vector<std::string>& coordinator_args) {
  LoopbackCluster cluster(/*journaled=*/true, coordinator_args);
  cluster.start_agent("a1");
  cluster.start_agent("a2");
  cluster.wait_for_agents(2);
  // minesweeper 2x3, going on after bugs: 3,474 classes, 90 of them one deadlock.
  proto::SubmitRequest request;
  request.set_subject(subject("minesweeper"));
  for (const char* arg : {"--rows", "2", "--cols", "3"}) request.add_args(arg);
  request.set_sha256(agent::sha256_of_file(request.subject()));
  auto& settings = *request.mutable_settings();
  settings.set_reduction(proto::REDUCTION_OPTIMAL);
  settings.set_heuristic(proto::FIFO);
  settings.set_sleep_sets(true);
  settings.set_keep_going(true);
  settings.set_run_timeout_ms(10'000);
  agent::CoordinatorClient client{cluster.address(), milliseconds(5'000)};
  const auto job = client.submit(request);
  bool restarted = false;
  const auto last = client.watch(job, [&](const proto::JobProgress& update) {
    if (restarted || update.paths() < 600) return;
    cluster.restart_coordinator();  // this watch breaks, and the client watches again
    restarted = true;
  });
  ASSERT_TRUE(restarted) << "the exploration ended before the kill";
  const auto outcome = remote_outcome(client, job, last);
  EXPECT_EQ(outcome.state, proto::JOB_BUG_FOUND) << cluster.coordinator_log();
  EXPECT_EQ(outcome.classes, 3'474u) << cluster.coordinator_log();
  EXPECT_EQ(outcome, embedded_outcome(request)) << cluster.coordinator_log();
  EXPECT_NE(cluster.coordinator_log().find("records replayed"), std::string::npos);
  const bool compacting = !coordinator_args.empty();
  EXPECT_EQ(cluster.coordinator_log().find("journal compacted") != std::string::npos, compacting);
}

TEST(CoordinatorRestart, AnOptimalJobSplitOverAgentsLosesNoRequestThroughARestart) {
  optimal_job_through_a_restart({});
}

// The same, its journal compacted whenever it reached 4 KB and twice its last compacted size.
TEST(CoordinatorRestart, AnOptimalJobLosesNothingThroughACompactedJournal) {
  optimal_job_through_a_restart({"--compact-journal-at", "4096"});
}

TEST(CoordinatorAddress, ThatDoesNotAnswerIsReportedInBoundedTime) {
  const auto start = std::chrono::steady_clock::now();
  try {
    agent::CoordinatorClient client("127.0.0.1:1", milliseconds(1'000));
    FAIL() << "no exception";
  } catch (const agent::CoordinatorError& error) {
    EXPECT_EQ(std::string(error.what()), "coordinator at 127.0.0.1:1 does not answer (waited 1000 ms)");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

}  // namespace
}  // namespace exocheck::distributed_test
