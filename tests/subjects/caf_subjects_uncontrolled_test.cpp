// The CAF subjects started by hand, as their users run them: on CAF's own multi-threaded scheduler,
// with and without exocheck's CAF adapter preloaded (which then stays out of the way).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "subject_process.hpp"

namespace exocheck::testing {
namespace {

bool built(const std::string& name) {
  return std::filesystem::exists(std::string(EXOCHECK_BIN_DIR) + "/" + name);
}

/// Runs the subject once as it is and once with the adapter in LD_PRELOAD; both runs must agree.
class CafUncontrolled : public ::testing::TestWithParam<bool> {
 protected:
  SubjectRun run(const std::string& name, const std::vector<std::string>& args) const {
    if (!GetParam()) return run_subject(name, args);
    ::setenv("LD_PRELOAD", EXOCHECK_CAF_ADAPTER, 1);
    auto result = run_subject(name, args);
    ::unsetenv("LD_PRELOAD");
    return result;
  }
};

TEST_P(CafUncontrolled, RegistryCountsTheMasterAndItsWorkers) {
  if (!built("caf-registry")) GTEST_SKIP() << "caf-registry not built (no libcaf-dev)";
  EXPECT_EQ(run("caf-registry", {}).out, "registry: 3 registrations\n");
  const auto seven = run("caf-registry", {"--workers=7"});
  EXPECT_EQ(seven.exit_code, 0);
  EXPECT_EQ(seven.out, "registry: 8 registrations\n");
}

// exocheck/caf_monitor.hpp without an agent: the monitors run, and the adapter, preloaded or not,
// stays out of the way.
TEST_P(CafUncontrolled, AlarmsMonitorsRunAsWrittenWithoutAnAgent) {
  if (!built("caf-alarm")) GTEST_SKIP() << "caf-alarm not built (no libcaf-dev)";
  const auto fixed = run("caf-alarm", {"--fixed"});
  EXPECT_EQ(fixed.exit_code, 0);
  EXPECT_EQ(fixed.out, "caf-alarm: done\n");
  const auto open = run("caf-alarm", {"--fixed", "--leave-open"});
  EXPECT_EQ(open.exit_code, 0);
  EXPECT_EQ(open.out, "caf-alarm: monitor DoorShutInTheEnd is hot in state the door is open\ncaf-alarm: done\n");
}

TEST_P(CafUncontrolled, FixedBankEndsWithEveryDeposit) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  const auto result = run("caf-bank", {"--fixed", "--clients=3"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, "bank: balance 300, expected 300\n");
}

TEST_P(CafUncontrolled, FixedPhilosophersAllEat) {
  if (!built("caf-philosophers")) GTEST_SKIP() << "caf-philosophers not built (no libcaf-dev)";
  const auto result = run("caf-philosophers", {"--fixed", "--philosophers=3"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* line : {"philosopher 0 eats\n", "philosopher 1 eats\n", "philosopher 2 eats\n"}) {
    EXPECT_NE(result.out.find(line), std::string::npos) << result.out;
  }
}

TEST_P(CafUncontrolled, FixedPipelineEmitsEveryItemInOrder) {
  if (!built("caf-pipeline")) GTEST_SKIP() << "caf-pipeline not built (no libcaf-dev)";
  const auto result = run("caf-pipeline", {"--fixed", "--items=3"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out,
            "sink: item 1 -> 1\nsink: item 2 -> 4\nsink: item 3 -> 9\nsink: 3 of 3 items emitted in order\n");
}

INSTANTIATE_TEST_SUITE_P(AdapterPreloaded, CafUncontrolled, ::testing::Bool());

}  // namespace
}  // namespace exocheck::testing
