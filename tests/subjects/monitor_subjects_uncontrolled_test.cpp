// Subjects with specification monitors started by hand: a monitor's failed check and a monitor hot
// where the run ends fail the process as they fail a controlled run.

#include <gtest/gtest.h>

#include <string>

#include "subject_process.hpp"

namespace exocheck::testing {
namespace {

TEST(MonitorSubjectsUncontrolled, AMonitorHotWhereTheRunEndsExitsOne) {
  const auto down = run_subject("answered", {"--server-down"});
  ASSERT_FALSE(down.timed_out);
  EXPECT_EQ(down.exit_code, 1);
  for (int run = 0; run < 10; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto fixed = run_subject("answered", {"--fixed"});
    ASSERT_FALSE(fixed.timed_out);
    EXPECT_EQ(fixed.exit_code, 0);
  }
}

TEST(MonitorSubjectsUncontrolled, AMonitorsChecksHoldWhenTheAlarmWaitsForTheDoor) {
  for (int run = 0; run < 10; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    const auto fixed = run_subject("monitor-order", {"--fixed", "--bystanders", "2"});
    ASSERT_FALSE(fixed.timed_out);
    EXPECT_EQ(fixed.exit_code, 0);
  }
}

}  // namespace
}  // namespace exocheck::testing
