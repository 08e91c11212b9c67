// Every bug an exploration saves replays to the same failure, whatever ended its run (issue 51): a
// property over random programs (tests/fault_subjects/random_actors.cpp, each seed a program that
// ends in a failed check, an exception, abort(), a signal, exit() or an unanswered call), explored
// with --keep-going under each delivery order and with a crash allowed. The run each bug's needs
// name (bug-N.needs.trace) replays to the same failure too. These programs found an exploration
// that never ended (a tentative entry after a failure that ended its run left unsure) and bugs
// optimal DPOR did not report (a second actor's failed check, after the first in its one run).
#include <map>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

constexpr int kSeeds = 100;

std::vector<std::string> options_for(int seed) {
  switch (seed % 4) {
    case 0:
      return {"--delivery", "fifo"};
    case 1:
      return {"--delivery", "causal"};
    case 2:
      return {"--crash", "1"};
    default:
      return {};
  }
}

TEST_F(ExploreTest, EveryBugOfAHundredRandomProgramsReplaysToTheSameFailure) {
  if (!built("random_actors")) GTEST_SKIP() << "random_actors not built";
  std::map<std::string, int> by_status;
  int complete = 0;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    auto options = options_for(seed);
    options.insert(options.end(), {"--keep-going", "--time-limit", "30"});
    const auto result = figures(options, "random_actors", {"--seed", std::to_string(seed)});
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_TRUE(result.exit_code == 0 || result.exit_code == 1) << result.summary.dump(2);
    complete += result.complete ? 1 : 0;
    for (const auto& bug : result.summary.at("bugs")) {
      const auto status = bug.at("status").get<std::string>();
      ++by_status[status];
      for (const auto* key : {"trace", "needs_trace"}) {
        const auto& path = std::string(key) == "trace" ? bug.at("trace") : bug.at("needs").at("trace");
        if (path.is_null()) continue;
        const auto replayed = exocheck({"replay", path.get<std::string>()});
        EXPECT_NE(replayed.out.find("Replay: reproduced " + status), std::string::npos)
            << key << " of bug " << bug.at("number") << "\n"
            << replayed.out << replayed.err;
      }
    }
  }
  EXPECT_EQ(complete, kSeeds);
  // The distinct bugs are the same under every reduction and number of workers (bug_signature.hpp,
  // failures_of): a run whose two actors fail counts as a bug of each.
  EXPECT_EQ(by_status, (std::map<std::string, int>{{"RUN_ASSERTION_FAILED", 23},
                                                   {"RUN_CRASH", 24},
                                                   {"RUN_DEADLOCK", 9},
                                                   {"RUN_EXCEPTION", 16},
                                                   {"RUN_EXIT_WITHOUT_RESULT", 13}}));
}

}  // namespace
}  // namespace exocheck::explore_test
