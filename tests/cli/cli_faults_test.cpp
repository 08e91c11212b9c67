// Misbehaving subjects through the CLI: a crash is a bug with the steps up to the one it ended, and
// replays; a hang ends at --timeout.

#include "cli_fixture.hpp"

namespace exocheck::cli_test {
namespace {

class Faults : public CliTest {};

TEST_F(Faults, CrashIsABugWithTheStepsUpToTheOneItEndedAndReplays) {
  if (!built("fault_crash")) GTEST_SKIP() << "fault_crash is not built";
  const auto output = run_subject("fault_crash", {}, "crash.trace");
  EXPECT_EQ(output.exit_code, 1) << output.err;
  EXPECT_EQ(step_numbers(output.out), (std::vector<unsigned>{0, 1, 2, 3})) << output.out;
  EXPECT_NE(output.out.find("!! crash"), std::string::npos) << output.out;
  EXPECT_NE(output.out.find("Result: crash (RUN_CRASH) after 3 steps\n"), std::string::npos) << output.out;
  EXPECT_NE(output.out.find("  signal:       11\n"), std::string::npos) << output.out;

  const auto replayed = exocheck({"replay", "crash.trace"});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.err;
  EXPECT_EQ(last_line(replayed.out), "Replay: reproduced RUN_CRASH") << replayed.out;
}

TEST_F(Faults, HangEndsAtTheTimeout) {
  if (!built("fault_hang")) GTEST_SKIP() << "fault_hang is not built";
  const auto output = run_subject("fault_hang", {"--timeout", "0.5"}, "hang.trace");
  EXPECT_EQ(output.exit_code, 1) << output.err;
  EXPECT_NE(output.out.find("Result: hang (RUN_HANG)"), std::string::npos) << output.out;
  EXPECT_EQ(trace("hang.trace").result().status(), proto::RUN_HANG);
}

}  // namespace
}  // namespace exocheck::cli_test
