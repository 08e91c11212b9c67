// Starting subjects: binaries that are missing or cannot run, PATH search, and no descriptor or
// child process left behind, however runs end.

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "runner_fixture.hpp"

namespace exocheck::agent::testing {
namespace {

/// A file in the test's temporary directory with `content` and permission bits `mode`.
std::string temporary_file(const std::string& name, const std::string& content, mode_t mode) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << content;
  ::chmod(path.c_str(), mode);
  return path;
}

std::size_t open_descriptors() {
  std::size_t count = 0;
  DIR* dir = ::opendir("/proc/self/fd");
  while (const dirent* entry = ::readdir(dir)) count += entry->d_name[0] != '.';
  ::closedir(dir);
  return count;
}

bool has_children() {
  return ::waitpid(-1, nullptr, WNOHANG) != -1 || errno != ECHILD;
}

TEST(RunnerLaunch, ReportsAMissingBinary) {
  const auto report = run("./no/such/subject");
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.detail(), "subject binary not found: ./no/such/subject");
  EXPECT_FALSE(report.hello_seen);
  EXPECT_TRUE(report.events.empty());
}

TEST(RunnerLaunch, ReportsABinaryMissingFromPath) {
  const auto report = run("no-such-exocheck-subject");
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.detail(), "subject binary not found: no-such-exocheck-subject (searched PATH)");
}

TEST(RunnerLaunch, ReportsAFileWithoutExecutePermission) {
  const auto path = temporary_file("not_executable", "#!/bin/sh\n", 0644);
  const auto report = run(path);
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.detail(), "subject binary is not executable: " + path);
}

TEST(RunnerLaunch, RefusesAFileThatIsNotAnElfExecutableBeforeRunningIt) {
  const auto canary = ::testing::TempDir() + "script_canary";
  std::remove(canary.c_str());
  const auto path = temporary_file("a_script", "#!/bin/sh\ntouch " + canary + "\n", 0755);
  const auto report = run(path);
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.detail(), path +
                                        " is not an ELF executable (a script?): exocheck runs programs linked with "
                                        "its hook or written with CAF; nothing was run");
  EXPECT_NE(::access(canary.c_str(), F_OK), 0) << "the script ran";
  EXPECT_FALSE(has_children());
}

// A hooked binary whose program interpreter is missing passes the check of its file, then the
// kernel refuses it.
TEST(RunnerLaunch, ReportsAnExecutableTheKernelCannotRunAndReapsTheFailedChild) {
  std::ifstream original(bin("scripted_hook"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(original)), std::istreambuf_iterator<char>());
  const std::string loader = "/lib64/ld-linux-x86-64.so.2";
  const auto at = bytes.find(loader);
  ASSERT_NE(at, std::string::npos) << "scripted_hook names no x86-64 program interpreter";
  bytes.replace(at, loader.size(), "/lib64/ld-absnt-x86-64.so.2");
  const auto path = temporary_file("missing_interpreter", bytes, 0755);
  const auto report = run(path);
  EXPECT_EQ(report.result.status(), proto::RUN_LAUNCH_FAILED);
  EXPECT_EQ(report.result.detail(), "cannot start subject " + path + ": No such file or directory");
  EXPECT_FALSE(has_children());
}

TEST(RunnerLaunch, SearchesPathForABareName) {
  const std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (std::string(EXOCHECK_BIN_DIR) + ":" + saved).c_str(), 1);
  const auto report = run("scripted_hook", {"hello", "read-request", "events:1", "result"});
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED) << report.result.detail();
  EXPECT_EQ(report.events.size(), 1u);
}

TEST(RunnerLaunch, LeaksNoDescriptorAndNoChildOverManyRunsEndingEveryWay) {
  const std::vector<std::vector<std::string>> endings = {
      {"hello", "read-request", "events:2", "result"},
      {"hello", "read-request", "events:2", "abort"},
      {"hello", "read-request", "events:2", "garbage", "hang"},
      {"hello", "read-request", "events:2", "exit:7"},
      {"exit:0"},
  };
  const std::size_t before = open_descriptors();
  for (int i = 0; i < 200; ++i) {
    const auto report = run_script(endings[static_cast<std::size_t>(i) % endings.size()]);
    ASSERT_NE(report.result.status(), proto::RUN_UNKNOWN);
  }
  EXPECT_EQ(open_descriptors(), before);
  EXPECT_FALSE(has_children());
}

// The agent runs one Runner per slot, each on its own thread: a descriptor opened by one launch
// must not end up in another slot's subject.
TEST(RunnerLaunch, RunsSubjectsFromParallelThreadsWithoutCrossedDescriptors) {
  constexpr int kThreads = 4, kRunsEach = 25;
  std::atomic<int> completed{0}, clean{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kRunsEach; ++i) {
        const auto report = run_script({"hello", "read-request", "self", "result"});
        completed += report.result.status() == proto::RUN_COMPLETED;
        clean += report.events.size() == 1 &&
                 report.events[0].summary().starts_with("fds=0:/dev/null,1:/dev/null,2:pipe,3:socket group=own ");
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(completed.load(), kThreads * kRunsEach);
  EXPECT_EQ(clean.load(), kThreads * kRunsEach);
  EXPECT_FALSE(has_children());
}

}  // namespace
}  // namespace exocheck::agent::testing
