// LivenessWatch: a monitor's temperature counts fair rounds only (liveness_watch.hpp).

#include "liveness_watch.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace exocheck::detail {
namespace {

class Owed : public Monitor {
 public:
  Owed() : Monitor("Owed") {}
  void heat() { hot("owed"); }
  void cool() { cold(); }
};

struct WatchedRun {
  explicit WatchedRun(std::uint32_t bound) : watch(bound) {}
  /// One step delivering `delivered`, with `enabled` the messages enabled after it.
  const Monitor* step(const std::string& delivered, const std::vector<std::string>& enabled) {
    std::vector<const std::string*> names;
    for (const auto& name : enabled) names.push_back(&name);
    Monitor* const monitors[] = {&owed};
    return watch.after_step(++steps, delivered, names, monitors);
  }
  LivenessWatch watch;
  Owed owed;
  std::uint32_t steps = 0;
};

TEST(LivenessWatch, ARoundThatStarvesAnActorNeverEndsSoItIsNotCounted) {
  WatchedRun run(3);
  run.owed.heat();
  // "server" is enabled throughout and never served: one round that never ends.
  for (int i = 0; i < 100; ++i) EXPECT_EQ(run.step(i % 2 == 0 ? "ping" : "pong", {"server", "ping", "pong"}), nullptr);
  EXPECT_EQ(run.watch.temperature(run.owed), 0u);
}

// A store's node that keeps taking its own periodic tick while a repair message to it waits: each
// tick is a new message, the repair is never delivered, and the round never ends (counted per
// actor, the node's ticks ended it: a false potential liveness bug).
TEST(LivenessWatch, AnActorTakingItsOwnTickWhileAMessageToItWaitsDoesNotEndTheRound) {
  WatchedRun run(2);
  run.owed.heat();
  run.step("node#1", {"node#2", "store#7"});
  for (int tick = 2; tick < 50; ++tick) {
    EXPECT_EQ(run.step("node#" + std::to_string(tick), {"node#" + std::to_string(tick + 1), "store#7"}), nullptr);
  }
  EXPECT_EQ(run.watch.temperature(run.owed), 0u);
  // Once the repair is delivered, the round ends.
  run.step("store#7", {"node#51"});
  EXPECT_EQ(run.watch.temperature(run.owed), 1u);
}

TEST(LivenessWatch, AMonitorHotThroughMoreRoundsThanTheBoundIsReported) {
  WatchedRun run(3);
  run.owed.heat();
  run.step("ping", {"pong"});  // the first step looked at opens the first round: {pong}
  for (std::uint32_t round = 1; round <= 3; ++round) {
    EXPECT_EQ(run.step(round % 2 == 1 ? "pong" : "ping", {round % 2 == 1 ? "ping" : "pong"}), nullptr);
    EXPECT_EQ(run.watch.temperature(run.owed), round);
  }
  EXPECT_EQ(run.step("ping", {"pong"}), &run.owed);
  EXPECT_EQ(run.watch.temperature(run.owed), 4u);
}

TEST(LivenessWatch, AnActorThatHasNothingEnabledAnyMoreIsNotWaitedFor) {
  WatchedRun run(1);
  run.owed.heat();
  run.step("a", {"a", "b"});
  // b's message goes away (a step of a withdrew it): the round of {a, b} ends at a's step.
  EXPECT_EQ(run.step("a", {"a"}), nullptr);
  EXPECT_EQ(run.watch.temperature(run.owed), 1u);
}

TEST(LivenessWatch, GoingColdStartsAgainAndARoundBegunColdDoesNotCount) {
  WatchedRun run(2);
  run.step("a", {"a"});
  run.owed.heat();
  run.step("a", {"a"});  // hot since this step: its round began cold
  EXPECT_EQ(run.watch.temperature(run.owed), 0u);
  run.step("a", {"a"});
  run.step("a", {"a"});
  EXPECT_EQ(run.watch.temperature(run.owed), 2u);
  run.owed.cool();
  run.step("a", {"a"});
  EXPECT_EQ(run.watch.temperature(run.owed), 0u);
}

TEST(LivenessWatch, NoBoundCountsNothing) {
  WatchedRun run(0);
  run.owed.heat();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(run.step("a", {"a"}), nullptr);
  EXPECT_EQ(run.watch.temperature(run.owed), 0u);
}

}  // namespace
}  // namespace exocheck::detail
