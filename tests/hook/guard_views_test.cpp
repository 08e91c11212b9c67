// Guards with views (actor.hpp): the controlled runtime keeps each receiver's guard views before
// its latest steps and records, with every message sent to it, the earlier steps whose views
// reject the message (trace.proto's SentMessage.rejected_at).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "control_harness.hpp"
#include "exocheck/exocheck.hpp"
#include "guard_history.hpp"

namespace exocheck::testing {
namespace {

using Steps = std::vector<std::uint32_t>;

struct Tick {};
struct Go {};
struct Poke {
  ActorRef to;
};

/// Accepts Go from its third step on; `plain` writes the same guard without a view.
class Counter : public Actor {
 public:
  explicit Counter(bool plain) {
    on([this](const Tick&) { ++ticks_; });
    on([](const Go&) {});
    if (plain) {
      guard<Go>([this](const Go&) { return ticks_ >= 2; });
    } else {
      guard<Go>([this] { return ticks_; }, [](int ticks, const Go&) { return ticks >= 2; });
    }
  }

 private:
  int ticks_ = 0;
};

class Poker : public Actor {
 public:
  Poker() {
    on([this](const Poke& p) { send(p.to, Go{}); });
  }
};

/// The rejected_at of the Go that the poker sends (step 4 under FIFO, after three ticks).
Steps rejections_of_go(bool plain, int ticks) {
  auto run = run_controlled(request(proto::FIFO), [&](System& system) {
    auto counter = system.spawn<Counter>(plain);
    auto poker = system.spawn<Poker>();
    for (int i = 0; i < ticks; ++i) system.send(counter, Tick{});
    system.send(poker, Poke{counter});
  });
  EXPECT_EQ(run.result.status(), proto::RUN_COMPLETED);
  for (const auto& event : run.events) {
    for (const auto& sent : event.sent()) {
      if (sent.type() == "Go") return Steps(sent.rejected_at().begin(), sent.rejected_at().end());
    }
  }
  ADD_FAILURE() << "no Go sent";
  return {};
}

TEST(GuardViews, AMessageNamesTheReceiversEarlierStepsWhoseViewsRejectIt) {
  // Ticks at steps 1, 2 and 3: before them the counter had 0, 1 and 2 ticks; Go needs 2.
  EXPECT_EQ(rejections_of_go(false, 3), (Steps{1, 2}));
}

TEST(GuardViews, AGuardWithoutAViewNamesNoStep) {
  EXPECT_EQ(rejections_of_go(true, 3), Steps{});
}

TEST(GuardViews, OnlyTheLatestStepsKeepTheirViews) {
  // Every tick's view rejects Go up to the second; the kept steps are the latest kGuardHistorySteps.
  const int ticks = static_cast<int>(detail::kGuardHistorySteps) + 10;
  const Steps rejected = rejections_of_go(false, ticks);
  // Only steps 1 and 2 reject, and they are no longer kept.
  EXPECT_EQ(rejected, Steps{});
  EXPECT_EQ(rejections_of_go(false, static_cast<int>(detail::kGuardHistorySteps)), (Steps{1, 2}));
}

}  // namespace
}  // namespace exocheck::testing
