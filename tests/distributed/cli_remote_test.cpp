// `exocheck explore --coordinator ADDR` against real daemons on loopback: the same figures,
// summary line and exit code as the embedded explorer.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "daemon_processes.hpp"

namespace exocheck::distributed_test {
namespace {

std::string explore_command(const std::string& address, const std::string& options,
                            const std::string& subject = "registry") {
  return (bin_dir() / "exocheck").string() + " explore --coordinator " + address + " " + options + " -- " +
         (bin_dir() / subject).string() + " 2>/dev/null";
}

TEST(RemoteExplore, RegistryThroughTwoAgentsGivesThePapersFigures) {
  LoopbackCluster cluster;
  cluster.start_agent("a1");
  cluster.start_agent("a2");
  cluster.wait_for_agents(2);
  const auto result = run_command(explore_command(cluster.address(), "--reduction dpor --no-sleep-sets --json"));
  ASSERT_EQ(result.exit_code, 0) << result.out << cluster.coordinator_log();
  const auto summary = nlohmann::json::parse(result.out);
  EXPECT_EQ(summary["stats"]["paths"], 24);
  EXPECT_EQ(summary["stats"]["classes"], 6);
  EXPECT_EQ(summary["complete"], true);
}

TEST(RemoteExplore, TextReportEndsWithTheStableSummaryLine) {
  LoopbackCluster cluster;
  cluster.start_agent("a1", 2);
  cluster.wait_for_agents(1);
  const auto result = run_command(explore_command(cluster.address(), "--reduction transdpor --no-sleep-sets"));
  ASSERT_EQ(result.exit_code, 0) << result.out << cluster.coordinator_log();
  EXPECT_NE(result.out.find("Summary: complete, "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(" 6 classes, 0 bugs"), std::string::npos) << result.out;
}

TEST(RemoteExplore, DeterminismFindingComesWithBothTraces) {
  LoopbackCluster cluster;
  cluster.start_agent("a1", 2);
  cluster.wait_for_agents(1);
  const auto out =
      std::filesystem::temp_directory_path() / ("exocheck-remote-determinism-" + std::to_string(::getpid()));
  const auto result = run_command(
      explore_command(cluster.address(), "--check determinism --json --out " + out.string(), "futures-datarace"));
  ASSERT_EQ(result.exit_code, 1) << result.out << cluster.coordinator_log();
  const auto summary = nlohmann::json::parse(result.out);
  ASSERT_EQ(summary["bugs"].size(), 1u);
  const auto& bug = summary["bugs"][0];
  EXPECT_EQ(bug["status"], "RUN_NONDETERMINISTIC");
  EXPECT_TRUE(std::filesystem::exists(bug["trace"].get<std::string>()));
  EXPECT_TRUE(std::filesystem::exists(bug["reference_trace"].get<std::string>()));
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace exocheck::distributed_test
