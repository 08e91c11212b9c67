// The determinism subjects run by hand: each run ends in one of the final states exploration
// finds, and the fixed variant always in the same one.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "subject_process.hpp"

namespace exocheck::testing {
namespace {

constexpr int kRepetitions = 20;

TEST(GclDeterminismUncontrolled, EndsWithXBetweenTwoAndFive) {
  const std::set<std::string> reachable{"x=2 y=1 flag=true\n", "x=3 y=1 flag=true\n", "x=4 y=1 flag=true\n",
                                        "x=5 y=1 flag=true\n"};
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("gcl-determinism", {});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_TRUE(reachable.contains(result.out)) << result.out;
  }
}

TEST(FuturesDataraceUncontrolled, EndsWithFiveOrEight) {
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("futures-datarace", {});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_TRUE(result.out == "balance 5\n" || result.out == "balance 8\n") << result.out;
  }
}

TEST(FuturesDataraceUncontrolled, FixedAlwaysEndsWithFive) {
  for (int i = 0; i < kRepetitions; ++i) {
    const auto result = run_subject("futures-datarace", {"--fixed"});
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "balance 5\n");
  }
}

TEST(DeterminismSubjectsCommandLine, RejectUnknownOptionsAndPrintHelp) {
  for (const char* subject : {"gcl-determinism", "futures-datarace"}) {
    EXPECT_EQ(run_subject(subject, {"--no-such-option"}).exit_code, 2) << subject;
    const auto help = run_subject(subject, {"--help"});
    EXPECT_EQ(help.exit_code, 0) << subject;
    EXPECT_NE(help.out.find("Usage"), std::string::npos) << subject;
  }
}

}  // namespace
}  // namespace exocheck::testing
