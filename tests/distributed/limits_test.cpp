// Limits hold inside anything: --time-limit, SIGTERM and SIGINT end an exploration within moments,
// also while the explorer is analysing a run whose races take it minutes and while runs are in
// flight (they are killed), embedded and through a coordinator, with an honest report: exit 3 and
// the summary. The subject: pingpong --heartbeat, whose every run goes to the step limit (100,000
// steps) with its heartbeat racing with the ball all along, so that its first run's analysis
// alone outlasts the limits here. The bounds are generous (a loaded two-core machine): without
// the interruption each case takes minutes.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/process.hpp>

#include "daemon_processes.hpp"

namespace exocheck::distributed_test {
namespace {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

/// Beyond the limit or the signal, what an exploration may take to end on a loaded machine: an
/// embedded exploration stopped inside its analysis took 3.4 s more beside CI's other tests on a
/// slow morning (0.7 to 1.4 s alone), where without the interruption it takes minutes.
constexpr std::chrono::seconds kLatestEnd{10};

struct Stopped {
  int exit_code = -1;
  std::string out;
  double seconds = 0;  ///< from the start of `explore`
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// `exocheck explore OPTIONS -- pingpong --heartbeat`, sent `signal` after `signal_after` if given.
Stopped explore_endless(const std::vector<std::string>& options,
                        std::optional<std::pair<int, std::chrono::milliseconds>> signal_after = std::nullopt) {
  const auto scratch =
      std::filesystem::temp_directory_path() /
      ("exocheck-limits-" + std::to_string(::getpid()) + "-" + std::to_string(Clock::now().time_since_epoch().count()));
  std::filesystem::create_directories(scratch);
  std::vector<std::string> args{"explore", "--out", (scratch / "out").string()};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {"--", (bin_dir() / "pingpong").string(), "--heartbeat"});
  const auto started = Clock::now();
  bp::child explore((bin_dir() / "exocheck").string(), bp::args(args), bp::std_out > (scratch / "stdout").string(),
                    bp::std_err > (scratch / "stderr").string(), bp::std_in < bp::null);
  if (signal_after) {
    std::this_thread::sleep_for(signal_after->second);
    ::kill(explore.id(), signal_after->first);
  }
  explore.wait();
  Stopped stopped;
  stopped.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  stopped.exit_code = explore.exit_code();
  stopped.out = read_file(scratch / "stdout") + read_file(scratch / "stderr");
  std::filesystem::remove_all(scratch);
  return stopped;
}

void expect_stopped_by_a_limit(const Stopped& stopped, std::chrono::milliseconds limit) {
  EXPECT_EQ(stopped.exit_code, 3) << stopped.out;
  EXPECT_NE(stopped.out.find("Summary: incomplete, "), std::string::npos) << stopped.out;
  EXPECT_LT(stopped.seconds, std::chrono::duration<double>(limit + kLatestEnd).count()) << stopped.out;
}

TEST(Limits, ATimeLimitEndsAnEmbeddedExplorationInsideARunsAnalysis) {
  const auto stopped = explore_endless({"--time-limit", "2s", "--workers", "2"});
  expect_stopped_by_a_limit(stopped, std::chrono::seconds(2));
  EXPECT_NE(stopped.out.find("cut at the step limit"), std::string::npos) << stopped.out;
}

TEST(Limits, SigtermEndsAnEmbeddedExplorationInsideARunsAnalysis) {
  const auto stopped = explore_endless({"--workers", "1"}, std::pair{SIGTERM, std::chrono::milliseconds(2000)});
  expect_stopped_by_a_limit(stopped, std::chrono::seconds(2));
  EXPECT_NE(stopped.out.find("interrupted: stopped before the end (Ctrl-C)"), std::string::npos) << stopped.out;
}

// Half a second in, the first run is still running: it is killed, not waited for.
TEST(Limits, SigintEndsAnEmbeddedExplorationWhileItsRunsAreInFlight) {
  const auto stopped = explore_endless({"--workers", "2", "--run-timeout", "60s", "--step-limit", "100000000"},
                                       std::pair{SIGINT, std::chrono::milliseconds(500)});
  expect_stopped_by_a_limit(stopped, std::chrono::milliseconds(500));
  EXPECT_NE(stopped.out.find("interrupted: stopped before the end (Ctrl-C)"), std::string::npos) << stopped.out;
}

TEST(Limits, ATimeLimitEndsAJobThroughACoordinatorInsideARunsAnalysis) {
  LoopbackCluster cluster;
  cluster.start_agent("a1", 2);
  cluster.wait_for_agents(1);
  const auto stopped = explore_endless({"--coordinator", cluster.address(), "--time-limit", "2s"});
  expect_stopped_by_a_limit(stopped, std::chrono::seconds(2));
  EXPECT_NE(cluster.coordinator_log().find("job 1 ended: JOB_LIMIT_REACHED"), std::string::npos)
      << cluster.coordinator_log();
}

TEST(Limits, ATimeLimitEndsAJobWhoseRunsAreInFlight) {
  LoopbackCluster cluster;
  cluster.start_agent("a1", 2);
  cluster.wait_for_agents(1);
  const auto stopped = explore_endless(
      {"--coordinator", cluster.address(), "--time-limit", "1s", "--run-timeout", "60s", "--step-limit", "100000000"});
  expect_stopped_by_a_limit(stopped, std::chrono::seconds(1));
}

// An agent told to stop (SIGTERM) while it analyses a run and runs others ends within moments.
TEST(Limits, SigtermEndsAnAgentInsideARunsAnalysis) {
  LoopbackCluster cluster;
  const auto agent = cluster.start_agent("a1", 2);
  cluster.wait_for_agents(1);
  const auto scratch = std::filesystem::temp_directory_path() / ("exocheck-agent-stop-" + std::to_string(::getpid()));
  bp::child explore((bin_dir() / "exocheck").string(),
                    bp::args({"explore", "--coordinator", cluster.address(), "--out", scratch.string(), "--",
                              (bin_dir() / "pingpong").string(), "--heartbeat"}),
                    bp::std_out > bp::null, bp::std_err > bp::null, bp::std_in < bp::null);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const auto signalled = Clock::now();
  const int status = cluster.stop_agent(agent, SIGTERM);
  const double seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
  EXPECT_EQ(status, 0) << cluster.agent_log(agent);
  EXPECT_LT(seconds, std::chrono::duration<double>(kLatestEnd).count()) << cluster.agent_log(agent);
  ::kill(explore.id(), SIGINT);
  explore.wait();
  EXPECT_EQ(explore.exit_code(), 3);
  std::filesystem::remove_all(scratch);
}

}  // namespace
}  // namespace exocheck::distributed_test
