// A monitor's parts (Monitor::in_part): the lanes its notifications are on, which the exploration
// takes for its dependency, and each part's own temperature.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "exocheck/monitor.hpp"

namespace exocheck {
namespace {

struct Opened {};
struct Shut {};
struct WindowOpened {};
struct Armed {};

class Watched : public Monitor {
 public:
  Watched() : Monitor("Watched") {
    on([this](const Opened&) { hot("door open"); });
    on([this](const Shut&) { cold(); });
    on([this](const WindowOpened&) { hot("window open"); });
    on([this](const Armed&) { cold(); });
    in_part<Opened>("door");
    in_part<Shut>("door");
    in_part<WindowOpened>("window");
  }
  void declare_late() { in_part<Armed>("alarm"); }
};

template <typename E>
void tell(Monitor& monitor, const E& event) {
  ASSERT_TRUE(monitor.handle(typeid(E), &event));
}

TEST(MonitorParts, APartsNotificationsAreOnItsLaneAloneAndTheWholeMonitorsOnEveryLane) {
  Watched monitor;
  using Lanes = std::vector<std::string>;
  EXPECT_EQ(monitor.lanes_of(&typeid(Opened)), Lanes{"Watched/door"});
  EXPECT_EQ(monitor.lanes_of(&typeid(Shut)), Lanes{"Watched/door"});
  EXPECT_EQ(monitor.lanes_of(&typeid(WindowOpened)), Lanes{"Watched/window"});
  EXPECT_EQ(monitor.lanes_of(&typeid(Armed)), (Lanes{"Watched", "Watched/door", "Watched/window"}));
  EXPECT_EQ(monitor.lanes_of(nullptr), (Lanes{"Watched", "Watched/door", "Watched/window"}));
  // Fixed at the first notification: a part declared later would make earlier lanes wrong.
  EXPECT_THROW(monitor.declare_late(), std::logic_error);
}

TEST(MonitorParts, EachPartHasItsOwnTemperatureAndTheWholeMonitorCoolsThemAll) {
  Watched monitor;
  tell(monitor, Opened{});
  tell(monitor, WindowOpened{});
  EXPECT_EQ(monitor.hot_state(), "door open");
  // The door's shutting cools the door's part only: the order of two parts' notifications leaves
  // the monitor's temperature alike.
  tell(monitor, Shut{});
  EXPECT_EQ(monitor.hot_state(), "window open");
  tell(monitor, Armed{});  // the whole monitor's handler: every part cold
  EXPECT_EQ(monitor.hot_state(), "");
}

TEST(MonitorParts, AMonitorWithoutPartsIsOneLane) {
  class Plain : public Monitor {
   public:
    Plain() : Monitor("Plain") {
      on([](const Opened&) {});
    }
  } monitor;
  EXPECT_EQ(monitor.lanes_of(&typeid(Opened)), std::vector<std::string>{"Plain"});
}

}  // namespace
}  // namespace exocheck
