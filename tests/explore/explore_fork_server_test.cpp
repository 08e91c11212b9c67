// `exocheck explore` with and without the fork server, its runs in place or forked: the same
// figures and the same bugs, every run in place by default (where the kernel allows it), and a
// subject that cannot serve forks explored one process per run.

#include <sched.h>

#include "explore_fixture.hpp"
#include "kernel_features.hpp"

namespace exocheck::explore_test {
namespace {

class ExploreForkServer : public ExploreTest {
 protected:
  static std::uint64_t runs_of(const Figures& figures, const char* kind) {
    return figures.summary.at("stats").at(kind).get<std::uint64_t>();
  }
  /// The CPUs this process, and the exocheck it starts, may run on.
  static std::size_t allowed_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return ::sched_getaffinity(0, sizeof set, &set) == 0 ? static_cast<std::size_t>(CPU_COUNT(&set)) : 1;
  }
  static std::uint64_t executions(const Figures& figures) { return figures.paths + figures.sleep_blocked; }
  /// The stats counter the default runs go to on this kernel.
  static const char* default_runs() { return agent::testing::kernel_runs_in_place() ? "in_place_runs" : "forked_runs"; }
};

// Systematic throughout: the counts of runs below are the paths' (a portfolio adds sampled runs).
// One worker, so that every mode explores exactly the same paths.
TEST_F(ExploreForkServer, RunsInPlaceAndForkedGiveTheFiguresOfOneProcessPerRun) {
  for (const auto& [subject, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"registry", {"--workers", "3"}}, {"pi", {"--workers", "3"}}, {"chameneos", {"--creatures", "2"}}}) {
    if (!built(subject)) continue;
    const auto in_place = figures({"--strategy", "systematic", "--workers", "1"}, subject, args);
    const auto forked = figures({"--strategy", "systematic", "--workers", "1", "--no-in-place"}, subject, args);
    const auto alone = figures({"--strategy", "systematic", "--workers", "1", "--no-fork-server"}, subject, args);
    ASSERT_EQ(in_place.exit_code, 0) << subject;
    ASSERT_EQ(forked.exit_code, 0) << subject;
    EXPECT_TRUE(forked.complete) << subject;
    for (const auto* served : {&in_place, &forked}) {
      EXPECT_EQ(served->paths, alone.paths) << subject;
      EXPECT_EQ(served->sleep_blocked, alone.sleep_blocked) << subject;
      EXPECT_EQ(served->transitions, alone.transitions) << subject;
      EXPECT_EQ(served->classes, alone.classes) << subject;
      EXPECT_EQ(runs_of(*served, "process_runs"), 0u) << subject;
    }
    EXPECT_EQ(runs_of(in_place, default_runs()), executions(in_place)) << subject;
    EXPECT_EQ(runs_of(forked, "forked_runs"), executions(forked)) << subject;
    EXPECT_EQ(runs_of(forked, "in_place_runs"), 0u) << subject;
    EXPECT_EQ(runs_of(alone, "forked_runs") + runs_of(alone, "in_place_runs"), 0u) << subject;
    EXPECT_EQ(runs_of(alone, "process_runs"), executions(alone)) << subject;
    EXPECT_EQ(in_place.summary.at("options").at("in_place"), true);
    EXPECT_EQ(forked.summary.at("options").at("in_place"), false);
    EXPECT_EQ(forked.summary.at("options").at("fork_server"), true);
    EXPECT_EQ(alone.summary.at("options").at("fork_server"), false);
    EXPECT_EQ(alone.summary.at("options").at("in_place"), false);
  }
}

TEST_F(ExploreForkServer, RegistryWithThreeWorkersHas24ClassesThroughTheForkServer) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto result = figures({"--strategy", "systematic", "--workers", "2"}, "registry", {"--workers", "3"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.classes, 24u);  // the 4! orders in which the registry hears the 4 registrations
  EXPECT_EQ(runs_of(result, default_runs()), executions(result));
}

// A server's start-up costs as much as a few dozen runs. Workers that share CPUs join only an
// exploration long enough to pay for their servers.
TEST_F(ExploreForkServer, WorkersSharingCpusStartServersOnlyForALongEnoughExploration) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const std::string workers = std::to_string(allowed_cpus() + 1);
  const auto small = figures({"--strategy", "systematic", "--workers", workers}, "registry");  // 6 runs
  EXPECT_EQ(small.classes, 6u);
  EXPECT_EQ(runs_of(small, "server_starts"), 1u);
  const auto large =
      figures({"--strategy", "systematic", "--workers", workers}, "registry", {"--workers", "5"});  // 720 runs
  EXPECT_EQ(large.classes, 720u);
  // Worker k joins after 32 k results (or k times 200 ms): how many join depends on the CPUs.
  EXPECT_GE(runs_of(large, "server_starts"), 2u);
}

// With a CPU each, another worker's start costs the others nothing: it begins at once.
TEST_F(ExploreForkServer, WorkersWithACpuEachStartTheirServersAtOnce) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  if (allowed_cpus() < 2) GTEST_SKIP() << "one CPU";
  const auto small = figures({"--strategy", "systematic", "--workers", "2"}, "registry");  // 6 runs
  EXPECT_EQ(small.classes, 6u);
  EXPECT_EQ(runs_of(small, "server_starts"), 2u);
  EXPECT_EQ(runs_of(small, "process_runs"), 0u);
}

TEST_F(ExploreForkServer, PinnedWorkersFindTheSameClasses) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto result =
      figures({"--strategy", "systematic", "--workers", "3", "--pin-workers"}, "registry", {"--workers", "3"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.classes, 24u);
  EXPECT_EQ(result.summary.at("options").at("pin_workers"), true);
}

TEST_F(ExploreForkServer, ACrashFoundThroughTheForkServerIsTheSameBugAndReplays) {
  if (!built("fault_crash")) GTEST_SKIP() << "fault_crash not built";
  const auto forked = figures({"--strategy", "systematic", "--workers", "1"}, "fault_crash");
  const auto alone = figures({"--strategy", "systematic", "--workers", "1", "--no-fork-server"}, "fault_crash");
  ASSERT_EQ(forked.exit_code, 1);
  EXPECT_EQ(runs_of(forked, default_runs()), executions(forked));
  ASSERT_EQ(forked.bugs, 1u);
  const auto& bug = forked.summary.at("bugs").at(0);
  EXPECT_EQ(bug.at("status"), alone.summary.at("bugs").at(0).at("status"));
  EXPECT_EQ(bug.at("detail"), alone.summary.at("bugs").at(0).at("detail"));
  const auto replayed = exocheck({"replay", bug.at("trace").get<std::string>()});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_CRASH"), std::string::npos) << replayed.out;
}

TEST_F(ExploreForkServer, ASubjectWithAThreadIsExploredOneProcessPerRunWithAWarning) {
  if (!built("fault_threads")) GTEST_SKIP() << "fault_threads not built";
  const auto output = explore({"--strategy", "systematic", "--workers", "1"}, "fault_threads");
  EXPECT_EQ(output.exit_code, 0) << output.err;
  EXPECT_NE(output.err.find("no fork server (2 threads are running when System::run() starts; a fork would copy "
                            "only one of them); running one process per run"),
            std::string::npos)
      << output.err;
  const auto summary = nlohmann::json::parse(output.out);
  EXPECT_EQ(summary.at("stats").at("forked_runs"), 0);
  EXPECT_EQ(summary.at("stats").at("process_runs"), 1);
}

TEST_F(ExploreForkServer, TheReportSaysWhenRunsAreNotInPlace) {
  if (!built("registry")) GTEST_SKIP() << "registry not built";
  const auto output = exocheck({"explore", "--no-fork-server", "--workers", "1", "--out", "out", "--",
                                cli_test::subject_path("registry").string()});
  EXPECT_EQ(output.exit_code, 0) << output.err;
  EXPECT_NE(output.out.find(", one process per run\n"), std::string::npos) << output.out;
  const auto forked = exocheck({"explore", "--no-in-place", "--workers", "1", "--out", "out", "--",
                                cli_test::subject_path("registry").string()});
  EXPECT_EQ(forked.exit_code, 0) << forked.err;
  EXPECT_NE(forked.out.find(", runs forked\n"), std::string::npos) << forked.out;
  const auto refused = exocheck({"explore", "--no-fork-server", "--coordinator", "localhost:1", "--",
                                 cli_test::subject_path("registry").string()});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  const auto refused_in_place = exocheck(
      {"explore", "--no-in-place", "--coordinator", "localhost:1", "--", cli_test::subject_path("registry").string()});
  EXPECT_EQ(refused_in_place.exit_code, 2) << refused_in_place.err;
}

}  // namespace
}  // namespace exocheck::explore_test
