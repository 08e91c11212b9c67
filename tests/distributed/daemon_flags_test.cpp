// What every daemon offers besides its own work: --version, and logs a collector can read
// (--log-format json: one JSON object a line) at the level asked for.

#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "daemon_processes.hpp"

namespace exocheck::distributed_test {
namespace {

// The log of a coordinator started with `args` on a free loopback port, then stopped (SIGTERM).
std::string coordinator_log_with(const std::vector<std::string>& args) {
  const auto dir = std::filesystem::temp_directory_path() / ("exocheck-daemon-log-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<std::string> all{"--listen", "127.0.0.1:0", "--port-file", (dir / "port").string()};
  all.insert(all.end(), args.begin(), args.end());
  {
    DaemonProcess coordinator(bin_dir() / "exocheck-coordinator", all, dir / "coordinator.log");
    for (int attempt = 0; attempt < 200 && !std::filesystem::exists(dir / "port"); ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    EXPECT_EQ(coordinator.stop(SIGTERM), 0);
  }
  std::ifstream log(dir / "coordinator.log");
  std::stringstream text;
  text << log.rdbuf();
  std::filesystem::remove_all(dir);
  return text.str();
}

TEST(DaemonFlags, EveryBinaryTellsItsVersion) {
  for (const std::string program : {"exocheck", "exocheck-coordinator", "exocheck-agent"}) {
    const auto result = run_command((bin_dir() / program).string() + " --version");
    EXPECT_EQ(result.exit_code, 0) << program;
    EXPECT_EQ(result.out, program + " " + EXOCHECK_TEST_TOOL_VERSION + "\n");
  }
}

TEST(DaemonFlags, JsonLogsAreOneObjectALine) {
  std::istringstream log(coordinator_log_with({"--log-format", "json"}));
  std::string line;
  int lines = 0;
  bool listening = false;
  while (std::getline(log, line)) {
    ++lines;
    const auto entry = nlohmann::json::parse(line);  // throws, failing the test, on anything else
    EXPECT_EQ(entry["program"], "exocheck-coordinator");
    EXPECT_TRUE(entry["time"].is_string());
    EXPECT_EQ(entry["pid"].type(), nlohmann::json::value_t::number_unsigned);
    listening = listening || (entry["level"] == "info" &&
                              entry["message"].get<std::string>().starts_with("exocheck-coordinator listening on"));
  }
  EXPECT_GE(lines, 2);  // listening, then the signal that shut it down
  EXPECT_TRUE(listening);
}

TEST(DaemonFlags, TheLogLevelQuietsWhatIsBelowIt) {
  const auto log = coordinator_log_with({"--log-level", "warn"});
  EXPECT_EQ(log.find("[info]"), std::string::npos) << log;
  EXPECT_NE(coordinator_log_with({}).find("[info] exocheck-coordinator listening on"), std::string::npos);
  EXPECT_EQ(
      run_command((bin_dir() / "exocheck-coordinator").string() + " --listen 127.0.0.1:0 --log-level loud 2>/dev/null")
          .exit_code,
      2);
}

}  // namespace
}  // namespace exocheck::distributed_test
