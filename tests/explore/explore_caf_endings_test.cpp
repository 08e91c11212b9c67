// How a CAF program's runs end, through `exocheck explore`: a crash or an exit() inside a step
// (the hook's last words keep the step), actors whose starts race, an await that never returns;
// each bug's trace replays to it.

#include <string>
#include <vector>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

class CafEndings : public ExploreTest {
 protected:
  // The relayed message of --null-deref overtakes only where CAF's own order is not kept.
  CafEndings() { delivery_ = {"--delivery", "unordered"}; }
};

// In the fork server's process (put back after each run), in a fork of it, in a process of its own.
// Systematic: the figures are its paths (a portfolio's sampled turn may find the bug first).
const std::vector<std::vector<std::string>> kEveryWayToRun{
    {"--strategy", "systematic", "--workers", "1"},
    {"--strategy", "systematic", "--workers", "1", "--no-in-place"},
    {"--strategy", "systematic", "--workers", "1", "--no-fork-server"}};

// A process that dies inside a step leaves that step's delivery in its trace (the hook's last
// words), so the trace replays to the same end: the keeper's null dereference where the relayed
// ping overtakes `set`, and a handler's exit(3), each step counted.
TEST_F(CafEndings, ACrashsTraceEndsWithTheDeliveryItDiedInAndReplays) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  for (const auto& mode : kEveryWayToRun) {
    const auto result = figures(mode, "caf_faults", {"--null-deref"});
    EXPECT_EQ(result.paths, 2u);
    EXPECT_EQ(result.transitions, 5u);
    expect_bug_replays(result, "RUN_CRASH", {"crashed with SIGSEGV in step 2 (message 1#1 at actor 0)"});
  }
}

TEST_F(CafEndings, AnExitInAHandlerEndsItsStepAndTheTraceReplays) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  for (const auto& mode : kEveryWayToRun) {
    const auto result = figures(mode, "caf_faults", {"--exit-in-handler"});
    EXPECT_EQ(result.paths, 1u);
    EXPECT_EQ(result.transitions, 1u);
    expect_bug_replays(result, "RUN_EXIT_WITHOUT_RESULT",
                       {"exited with code 3 without a result after step 1 (message env#1 at actor 0)"});
  }
}

// CAF starts each spawned actor on a scheduler thread of its own, beside caf_main: two actors'
// sends from their initialization are not ordered, under causal delivery either, while what an
// actor's start sent comes before what it sends later (caf-relay's order holds).
TEST_F(CafEndings, ActorsThatSendAsTheyStartRaceUnderCausalDelivery) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  for (const std::string delivery : {"unordered", "fifo", "causal"}) {
    for (const std::string reduction : {"exhaustive", "dpor", "optimal"}) {
      const auto result =
          figures({"--strategy", "systematic", "--workers", "1", "--delivery", delivery, "--reduction", reduction},
                  "caf_faults", {"--start-race"});
      EXPECT_EQ(result.classes, 2u) << delivery << ", " << reduction;
      EXPECT_EQ(result.bugs, 1u) << delivery << ", " << reduction;
      expect_bug_replays(result, "RUN_ASSERTION_FAILED", {"opened"});
    }
  }
}

// caf_main awaits a latch it holds, which two actors' starts send `set` and `ping`: where `ping`
// comes first the latch waits for ever, and so does the await: a deadlock naming the latch.
TEST_F(CafEndings, AnAwaitOfAnActorThatNeverEndsIsADeadlockNamingIt) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto result =
      figures({"--strategy", "systematic", "--workers", "1", "--delivery", "causal"}, "caf_faults", {"--await=hang"});
  EXPECT_EQ(result.classes, 2u);
  expect_bug_replays(result, "RUN_DEADLOCK",
                     {"main waits for actors that never end, nothing left to deliver to them: 0 "
                      "(caf::event_based_actor);"});
}

}  // namespace
}  // namespace exocheck::explore_test
