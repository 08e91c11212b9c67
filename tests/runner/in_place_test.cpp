// Runs performed in place by the fork server (control.proto, ServerReady.in_place): what a run
// changes in its process is put back before the next one (written memory, memory it unmapped,
// descriptors it left open), and what cannot be put back (a mapping left behind, a descriptor of
// the server closed, a thread left running) ends the server after that run, whose result stands;
// that subject's later runs are forked. Fault subject: fault_memory.

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "runner_fixture.hpp"

namespace exocheck::agent::testing {
namespace {

class InPlace : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kernel_runs_in_place()) GTEST_SKIP() << "this kernel cannot track written pages (Linux 6.7 or later)";
  }

  /// `runs` runs of fault_memory --change `change`, each of which must complete.
  void run_changing(const std::string& change, int runs) {
    for (int i = 0; i < runs; ++i) {
      const auto report = runner_.run(spec_of(bin("fault_memory"), {"--change", change}));
      EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED)
          << change << ", run " << i << ": " << report.result.detail();
      EXPECT_EQ(steps_of(report), first_steps(6)) << change << ", run " << i;
    }
  }

  /// The runner's counters, all three at once.
  void expect_runs(std::uint64_t in_place, std::uint64_t forked, std::uint64_t server_starts) const {
    EXPECT_EQ(runner_.counters().in_place_runs, in_place);
    EXPECT_EQ(runner_.counters().forked_runs, forked);
    EXPECT_EQ(runner_.counters().server_starts, server_starts);
  }

  Runner runner_;
};

TEST_F(InPlace, PutsBackTheMemoryARunWroteAndUnmapped) {
  run_changing("scribble", 5);
  expect_runs(5, 0, 1);
}

TEST_F(InPlace, ClosesTheDescriptorsARunLeftOpen) {
  run_changing("leak-fd", 4);
  expect_runs(4, 0, 1);
}

// A process's descriptor table is as large as its parent's was at fork (exec keeps it): from this
// process, holding a descriptor at 250, the subject's has 256 slots, and closing a run's
// descriptors would look at all of them after every run. The server makes its table fit.
TEST_F(InPlace, RunsWithADescriptorTableNoLargerThanTheirDescriptorsNeed) {
  const int high = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 250);
  ASSERT_GE(high, 250);
  run_changing("fd-table", 3);
  expect_runs(3, 0, 1);
  ::close(high);
}

// exit() in a child the run forked ends that child, not the run.
TEST_F(InPlace, LetsAChildTheRunForkedExit) {
  run_changing("fork-exit", 3);
  expect_runs(3, 0, 1);
}

TEST_F(InPlace, ForksTheLaterRunsOfASubjectThatLeavesAMappingBehind) {
  run_changing("leak-mapping", 3);
  expect_runs(1, 2, 2);
}

// A thread cannot be put back: the run that left one is the server's last, and its result stands.
// Said as such (its stack is a mapping left behind too, which would end the server anyway).
TEST_F(InPlace, ForksTheLaterRunsOfASubjectThatLeavesAThreadRunning) {
  std::ostringstream said;
  const auto logger = spdlog::default_logger();
  spdlog::set_default_logger(
      std::make_shared<spdlog::logger>("in-place", std::make_shared<spdlog::sinks::ostream_sink_mt>(said)));
  run_changing("leak-thread", 3);
  spdlog::set_default_logger(logger);
  expect_runs(1, 2, 2);
  EXPECT_THAT(said.str(), ::testing::HasSubstr("the run left a thread of its own running"));
}

TEST_F(InPlace, ForksTheLaterRunsOfASubjectThatClosesADescriptorOfTheServer) {
  run_changing("close-fd", 3);
  expect_runs(1, 2, 2);
}

TEST_F(InPlace, ForksEveryRunWhenAskedTo) {
  Runner forking(RunnerOptions{.in_place = false});
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(forking.run(spec_of(bin("fault_memory"))).result.status(), proto::RUN_COMPLETED);
  }
  EXPECT_EQ(forking.counters().forked_runs, 2u);
  EXPECT_EQ(forking.counters().in_place_runs, 0u);
}

}  // namespace
}  // namespace exocheck::agent::testing
