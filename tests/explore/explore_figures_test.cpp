// The papers' exact figures, through `exocheck explore` on the real subject binaries.

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

struct Expected {
  std::uint64_t paths;
  std::uint64_t transitions;  // 0: not checked
  std::uint64_t classes;
};

class ExploreFigures : public ExploreTest {
 protected:
  void expect_figures(const std::vector<std::string>& options, const std::string& subject,
                      const std::vector<std::string>& subject_args, Expected expected,
                      const std::string& workers = "1") const {
    if (!built(subject)) GTEST_SKIP() << subject << " not built";
    // The papers' figures are those of one worker exploring depth-first.
    std::vector<std::string> with_workers{"--workers", workers};
    with_workers.insert(with_workers.end(), options.begin(), options.end());
    const auto result = figures(with_workers, subject, subject_args);
    EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.paths, expected.paths);
    if (expected.transitions != 0) {
      EXPECT_EQ(result.transitions, expected.transitions);
    }
    EXPECT_EQ(result.classes, expected.classes);
    EXPECT_EQ(result.bugs, 0u);
  }
};

const std::vector<std::string> kNoArgs;
const std::vector<std::string> kPi2{"--workers", "2"};
const std::vector<std::string> kPi5{"--workers", "5"};

TEST_F(ExploreFigures, RegistryExhaustiveHas30PathsAnd6Classes) {
  expect_figures({"--reduction", "exhaustive", "--no-sleep-sets"}, "registry", kNoArgs, {30, 89, 6});
}

TEST_F(ExploreFigures, RegistryDporExplores24Paths) {
  expect_figures({"--reduction", "dpor", "--no-sleep-sets"}, "registry", kNoArgs, {24, 0, 6});
}

TEST_F(ExploreTest, HistoryHeuristicsReachEveryClass) {
  if (!built("pi")) GTEST_SKIP() << "pi not built";
  for (const std::string heuristic : {"hms", "sgr"}) {
    const auto result = figures({"--workers", "1", "--heuristic", heuristic}, "pi", {"--workers", "4"});
    EXPECT_EQ(result.exit_code, 0) << heuristic;
    EXPECT_TRUE(result.complete) << heuristic;
    EXPECT_EQ(result.classes, 24u) << heuristic;  // 4! orders in which the master adds the sums
  }
}

TEST_F(ExploreFigures, RegistryTransDporExplores10Paths) {
  expect_figures({"--reduction", "transdpor", "--no-sleep-sets"}, "registry", kNoArgs, {10, 0, 6});
}

// Results out of order (2 local workers) leave TransDPOR's figures as they are with one worker.
TEST_F(ExploreFigures, TwoWorkersGiveTransDporTheFiguresOfOne) {
  expect_figures({"--reduction", "transdpor", "--no-sleep-sets"}, "registry", kNoArgs, {10, 0, 6}, "2");
  expect_figures({"--reduction", "transdpor", "--no-sleep-sets", "--heuristic", "lca"}, "pi", kPi5, {945, 0, 120}, "2");
}

TEST_F(ExploreFigures, PiWithTwoWorkersHas12PathsInAll) {
  expect_figures({"--reduction", "exhaustive", "--no-sleep-sets"}, "pi", kPi2, {12, 0, 2});
}

TEST_F(ExploreFigures, PiWithTwoWorkersEcaDporExplores2Paths) {
  expect_figures({"--reduction", "dpor", "--heuristic", "eca", "--no-sleep-sets"}, "pi", kPi2, {2, 0, 2});
}

TEST_F(ExploreFigures, PiWithTwoWorkersLcaDporExplores3Paths) {
  expect_figures({"--reduction", "dpor", "--heuristic", "lca", "--no-sleep-sets"}, "pi", kPi2, {3, 0, 2});
}

TEST_F(ExploreFigures, PiWithFiveWorkersFifoDporExplores120Paths) {
  expect_figures({"--reduction", "dpor", "--heuristic", "fifo", "--no-sleep-sets"}, "pi", kPi5, {120, 931, 120});
}

TEST_F(ExploreFigures, PiWithFiveWorkersEcaDporExplores120Paths) {
  expect_figures({"--reduction", "dpor", "--heuristic", "eca", "--no-sleep-sets"}, "pi", kPi5, {120, 0, 120});
}

// The largest cells: 19,845 paths each, about 15 s with 2 workers (same figures as one: DPOR's
// additions do not depend on the order results arrive in).
TEST_F(ExploreFigures, PiWithFiveWorkersLcaAndLifoDporExplore19845Paths) {
  for (const char* heuristic : {"lca", "lifo"}) {
    expect_figures({"--reduction", "dpor", "--heuristic", heuristic, "--no-sleep-sets"}, "pi", kPi5,
                   {19'845, 156'070, 120}, "2");
  }
}

TEST_F(ExploreFigures, PiWithFiveWorkersFifoAndEcaTransDporExplore120Paths) {
  for (const char* heuristic : {"fifo", "eca"}) {
    expect_figures({"--reduction", "transdpor", "--heuristic", heuristic, "--no-sleep-sets"}, "pi", kPi5,
                   {120, 0, 120});
  }
}

TEST_F(ExploreFigures, PiWithFiveWorkersLcaTransDporExplores945Paths) {
  expect_figures({"--reduction", "transdpor", "--heuristic", "lca", "--no-sleep-sets"}, "pi", kPi5, {945, 0, 120});
}

TEST_F(ExploreFigures, PiWithFiveWorkersLcaDporWithSleepSetsExplores120Paths) {
  expect_figures({"--reduction", "dpor", "--heuristic", "lca", "--sleep-sets"}, "pi", kPi5, {120, 1236, 120});
}

TEST_F(ExploreFigures, PiWithFiveWorkersLcaTransDporWithSleepSetsExplores120Paths) {
  expect_figures({"--reduction", "transdpor", "--heuristic", "lca"}, "pi", kPi5, {120, 1015, 120});
}

// Parallelism changes the order results arrive in, never the classes reached.
TEST_F(ExploreTest, OneAndTwoWorkersReachTheSameClasses) {
  if (!built("pi")) GTEST_SKIP() << "pi not built";
  for (const char* reduction : {"dpor", "transdpor"}) {
    const auto one = figures({"--workers", "1", "--reduction", reduction, "--heuristic", "lca"}, "pi", kPi5);
    const auto two = figures({"--workers", "2", "--reduction", reduction, "--heuristic", "lca"}, "pi", kPi5);
    EXPECT_EQ(one.exit_code, 0) << reduction;
    EXPECT_EQ(two.exit_code, 0) << reduction;
    EXPECT_EQ(one.classes, 120u) << reduction;
    EXPECT_EQ(two.classes, one.classes) << reduction;
  }
}

}  // namespace
}  // namespace exocheck::explore_test
