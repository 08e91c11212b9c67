// Ctrl-C during `exocheck explore`: the exploration stops at once, giving up the runs in
// progress, and reports what it found as stopped by a limit (exit 3); a remote job is cancelled on
// the coordinator instead of running on for nobody.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/process.hpp>

#include "daemon_processes.hpp"

namespace exocheck::distributed_test {
namespace {

namespace bp = boost::process;

struct Interrupted {
  int exit_code = -1;
  std::string out;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// pi 6 with DPOR, LCA and no sleep sets has more than 500,000 paths (pi 5's 19,845 took less than
// two seconds on one core): it is still running when interrupted.
Interrupted explore_and_interrupt(const std::vector<std::string>& mode,
                                  const std::function<void()>& wait_until_running) {
  const auto out = std::filesystem::temp_directory_path() / ("exocheck-interrupt-" + std::to_string(::getpid()));
  std::vector<std::string> args{"explore"};
  args.insert(args.end(), mode.begin(), mode.end());
  for (const char* word : {"--reduction", "dpor", "--heuristic", "lca", "--no-sleep-sets", "--"}) args.push_back(word);
  args.push_back((bin_dir() / "pi").string());
  args.push_back("--workers");
  args.push_back("6");
  bp::child explore((bin_dir() / "exocheck").string(), bp::args(args), bp::std_out > out.string(),
                    bp::std_err > bp::null, bp::std_in < bp::null);
  wait_until_running();
  ::kill(explore.id(), SIGINT);
  explore.wait();
  Interrupted result;
  result.exit_code = explore.exit_code();
  result.out = read_file(out);
  std::filesystem::remove(out);
  return result;
}

TEST(Interrupt, EmbeddedExplorationStopsAndReportsWhatItFound) {
  // The signal handler is in place right after the arguments are parsed, long before this.
  const auto result =
      explore_and_interrupt({"--workers", "1"}, [] { std::this_thread::sleep_for(std::chrono::seconds(2)); });
  EXPECT_EQ(result.exit_code, 3) << result.out;
  EXPECT_NE(result.out.find("Summary: incomplete, "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("interrupted: stopped before the end (Ctrl-C)"), std::string::npos) << result.out;
}

TEST(Interrupt, RemoteJobIsCancelledOnTheCoordinator) {
  LoopbackCluster cluster;
  cluster.start_agent("a1");
  cluster.wait_for_agents(1);
  const auto result = explore_and_interrupt({"--coordinator", cluster.address()}, [&] {
    for (int i = 0; i < 100 && cluster.coordinator_log().find("job 1 running") == std::string::npos; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  });
  EXPECT_EQ(result.exit_code, 3) << result.out << cluster.coordinator_log();
  EXPECT_NE(result.out.find("Summary: incomplete, "), std::string::npos) << result.out;
  EXPECT_NE(cluster.coordinator_log().find("job 1 cancelled"), std::string::npos) << cluster.coordinator_log();
}

TEST(Interrupt, AJobWithoutAgentsSaysSoAndCanBeInterrupted) {
  LoopbackCluster cluster;  // no agent
  const auto err = std::filesystem::temp_directory_path() / ("exocheck-agentless-" + std::to_string(::getpid()));
  bp::child explore((bin_dir() / "exocheck").string(),
                    bp::args({"explore", "--coordinator", cluster.address(), "--", (bin_dir() / "registry").string()}),
                    bp::std_out > bp::null, bp::std_err > err.string(), bp::std_in < bp::null);
  const std::string warning =
      "has had no agent for 5 s; start one with: exocheck-agent --coordinator " + cluster.address();
  for (int i = 0; i < 300 && read_file(err).find(warning) == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_NE(read_file(err).find(warning), std::string::npos) << read_file(err);
  ::kill(explore.id(), SIGINT);
  explore.wait();
  EXPECT_EQ(explore.exit_code(), 3) << read_file(err);
  EXPECT_NE(cluster.coordinator_log().find("job 1 cancelled"), std::string::npos) << cluster.coordinator_log();
  std::filesystem::remove(err);
}

}  // namespace
}  // namespace exocheck::distributed_test
