// exocheck::choose in both runtimes: by hand a value drawn at random in its range; under control
// the value a prefix label names (0 when it names none), recorded in the step's event, and a label
// out of the handler's range a divergence. In main before System::run() it is refused in both.
#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>

#include "control_harness.hpp"
#include "exocheck/exocheck.hpp"

namespace exocheck::testing {
namespace {

struct Pick {
  void describe(Describer&) const {}
};

/// Chooses one of three, then one of two, and keeps what it chose.
class Picker : public Actor {
 public:
  Picker() {
    on([this](const Pick&) {
      const auto first = choose(3);
      const auto second = choose_bool();
      picked_ = std::to_string(first) + "," + (second ? "1" : "0");
    });
  }
  std::string final_state() const override { return picked_; }

 private:
  std::string picked_ = "none";
};

void picker_program(System& system) {
  system.send(system.spawn<Picker>(), Pick{});
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> choices_of(const proto::Event& event) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> choices;
  for (const auto& c : event.choices()) choices.emplace_back(c.range(), c.value());
  return choices;
}

TEST(ControlledChoice, WithoutALabelEveryChoiceIsZeroAndIsRecorded) {
  const auto run = run_controlled(request(), picker_program);
  ASSERT_EQ(run.result.status(), proto::RUN_COMPLETED) << run.result.detail();
  ASSERT_EQ(run.events.size(), 2u);
  EXPECT_EQ(choices_of(run.events[1]), (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{3, 0}, {2, 0}}));
  EXPECT_EQ(run.result.final_state(0), "0: 0,0");
}

TEST(ControlledChoice, APrefixLabelNamesTheValuesAndTheRestAreZero) {
  auto run = run_controlled(request(proto::FIFO, {"env#1?2.1"}), picker_program);
  ASSERT_EQ(run.result.status(), proto::RUN_COMPLETED) << run.result.detail();
  EXPECT_EQ(choices_of(run.events[1]), (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{3, 2}, {2, 1}}));
  EXPECT_EQ(run.result.final_state(0), "0: 2,1");
  run = run_controlled(request(proto::FIFO, {"env#1?1"}), picker_program);
  EXPECT_EQ(run.result.final_state(0), "0: 1,0");
}

TEST(ControlledChoice, AValueOutOfTheHandlersRangeIsADivergence) {
  const auto run = run_controlled(request(proto::FIFO, {"env#1?3"}), picker_program);
  EXPECT_EQ(run.result.status(), proto::RUN_DIVERGENCE);
  EXPECT_EQ(run.result.divergence_expected(), "env#1?3");
  EXPECT_NE(run.result.detail().find("chose among 3 values"), std::string::npos) << run.result.detail();
}

TEST(ControlledChoice, AChoiceInMainBeforeTheRunIsRefused) {
  EXPECT_THROW(run_controlled(request(), [](System&) { choose(2); }), std::logic_error);
}

TEST(NormalModeChoice, ValuesAreDrawnAtRandomInTheirRange) {
  ::unsetenv("EXOCHECK_CONTROL_FD");
  std::mutex mutex;
  std::set<std::size_t> seen;
  struct Draw : Actor {
    Draw(std::mutex* mutex, std::set<std::size_t>* seen) {
      on([=](const Pick&) {
        const auto value = choose(4);
        std::lock_guard lock(*mutex);
        seen->insert(value);
      });
    }
  };
  System system;
  EXPECT_THROW(choose(2), std::logic_error);
  const auto draw = system.spawn<Draw>(&mutex, &seen);
  for (int i = 0; i < 200; ++i) system.send(draw, Pick{});
  EXPECT_EQ(system.run(), 0);
  EXPECT_EQ(seen, (std::set<std::size_t>{0, 1, 2, 3}));  // 200 draws miss a value with p < 1e-24
}

}  // namespace
}  // namespace exocheck::testing
