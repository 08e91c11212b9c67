// coffee-machine: the firmware of an espresso machine that must survive a reboot in the middle of a
// coffee: Coyote's fail-over sample (github.com/microsoft/coyote, Samples/CoffeeMachineActors and
// Samples/CoffeeMachineTasks; tutorial docs/tutorials/actors/failover-coffee-machine.md). A controller
// (CoffeeMachine) drives mock sensors: the heater until the water is hot, the grinder until the porta
// filter is full, the pump (shot button) once per shot, then it dumps the grinds. The sensors are the
// hardware and keep the machine's state across a reboot; a booting controller knows nothing: it takes
// over the sensors (turning off whatever runs), reads the water, hopper and porta filter levels and the
// temperature, dumps old grinds, heats the water, and only then takes an order. A FailoverDriver orders
// --coffees coffees of --shots shots one at a time, and orders an unserved coffee again from a
// controller that has rebooted.
//
// The reboot is exocheck's crash fault, `--crash 1` (only the controller may crash: the sensors and the
// driver say crashable(false)): the controller said restart_as and comes back at once from scratch,
// only its boot count (its "flash") kept.
//
// The bug (the sample's; default variant): the grinder's test-mode shortcut fills the porta filter in
// one tick and takes 99 % from the hopper whatever it holds, so after a coffee from a low hopper the
// level is below zero. The controller that ground is told the hopper is empty and refuses a later
// order; but a controller that boots later reads the level and tests it, as the sample's does, with
// `== 0`: a negative level passes, and the next order turns the grinder on with no beans. The safety
// monitor fails: "the grinder was turned on with no beans in the hopper". It needs a crash once the
// grinding has started; without one there is no bug. With --fixed the boot tests `<= 0` (the
// tutorial's fix): the rebooted controller reports a refill needed, the order ends with an error, and
// neither monitor fails.
//
// Started by hand nothing crashes, and the machine makes the coffees with real timers (1 s a shot).

#include <CLI/CLI.hpp>
#include <array>
#include <chrono>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>

#include "exocheck/exocheck.hpp"

namespace {

using namespace std::chrono_literals;
using exocheck::ActorRef;
using exocheck::Done;

enum class Device { kHeater, kGrinder, kPump };  // the pump runs while the shot button is on
std::ostream& operator<<(std::ostream& out, Device device) {
  return out << (device == Device::kHeater ? "heater" : device == Device::kGrinder ? "grinder" : "pump");
}

// ---- messages ------------------------------------------------------------------------------------

/// Controller to driver, at the end of each boot: ready to make coffee, or a refill is needed.
struct MachineReady {
  bool ok = true;
  void describe(exocheck::Describer& d) const { d("ok", ok); }
};
struct MakeCoffee {
  int order = 0;
  int shots = 0;
  void describe(exocheck::Describer& d) const { d("order", order)("shots", shots); }
};
struct CoffeeCompleted {
  int order = 0;
  bool error = false;
  void describe(exocheck::Describer& d) const { d("order", order)("error", error); }
};
/// The controller's first message to itself. A crash drops its own timers, not a message it sent itself:
/// a boot that crashed before it took its Boot leaves it to the next, which takes only its own.
struct Boot {
  int boot = 0;
  void describe(exocheck::Describer& d) const { d("boot", boot); }
};

// Controller to sensors: calls, answered when done. A command carries the boot it was sent in, and the
// sensors carry out only the registered boot's: a fence against a dead controller's commands still on
// their way (Coyote's inboxes deliver them before the new controller's; exocheck's unordered delivery
// need not, and a stale command would then turn a device on or off under the new controller).
/// A booting controller takes over: from now on the sensors take commands of this boot and send their
/// events to the caller, and every device is off (the sample's controller turns them off one by one).
struct Register {
  int boot = 0;
  void describe(exocheck::Describer& d) const { d("boot", boot); }
};
struct Switch {
  int boot = 0;
  Device device = Device::kHeater;
  bool on = false;
  void describe(exocheck::Describer& d) const { d("boot", boot)("device", device)("on", on); }
};
struct DumpGrinds {
  int boot = 0;
  void describe(exocheck::Describer& d) const { d("boot", boot); }
};
struct ReadSensors {};
struct Readings {
  int water = 0;
  int hopper = 0;
  int filter = 0;
  int temperature = 0;
  friend std::ostream& operator<<(std::ostream& out, const Readings& r) {
    return out << "water=" << r.water << " hopper=" << r.hopper << " filter=" << r.filter
               << " temperature=" << r.temperature;
  }
};

// Sensors to the registered controller ("interrupts"), stamped with the boot whose command started the
// device that sends them: the controller ignores another boot's.
struct WaterHot {
  int boot = 0;
  void describe(exocheck::Describer& d) const { d("boot", boot); }
};
/// The sample's PortaFilterCoffeeLevelEvent and HopperEmptyEvent of one grinder tick, as one message.
struct FilterLevel {
  int boot = 0;
  int level = 0;
  bool hopper_empty = false;
  void describe(exocheck::Describer& d) const { d("boot", boot)("level", level)("hopper_empty", hopper_empty); }
};
/// The sample's ShotCompleteEvent, or its WaterEmptyEvent when the tank ran dry.
struct ShotDone {
  int boot = 0;
  bool water_empty = false;
  void describe(exocheck::Describer& d) const { d("boot", boot)("water_empty", water_empty); }
};
/// A device's timer in the sensors.
struct Tick {
  int boot = 0;
  Device device = Device::kHeater;
  void describe(exocheck::Describer& d) const { d("boot", boot)("device", device); }
};

// ---- specification monitors ----------------------------------------------------------------------

/// The sensors turn a device on, with what is in the tank and in the hopper then.
struct TurnedOn {
  Device device = Device::kHeater;
  int water = 0;
  int hopper = 0;
  void describe(exocheck::Describer& d) const { d("device", device)("water", water)("hopper", hopper); }
};
struct ShotPoured {};

/// The physical invariants, the sample's assertions in the sensors and in the controller: nothing runs
/// dry, and a cup gets the shots ordered, no more (and, when the coffee is reported made, no fewer).
class MachineSafety : public exocheck::Monitor {
 public:
  MachineSafety() : Monitor("MachineSafety") {
    on([](const TurnedOn& e) {
      if (e.device == Device::kGrinder) {
        exocheck::check(e.hopper > 0, "the grinder was turned on with no beans in the hopper (hopper level " +
                                          std::to_string(e.hopper) + ")");
      } else {
        exocheck::check(e.water > 0, std::string(e.device == Device::kPump ? "the shot button" : "the heater") +
                                         " was turned on with no water");
      }
    });
    // The controller starts pouring an order's shots into a new, empty cup (so the sample's assumes).
    on([this](const MakeCoffee& e) {
      order_ = e.order;
      wanted_ = e.shots;
      poured_ = 0;
    });
    on([this](const ShotPoured&) {
      ++poured_;
      exocheck::check(poured_ <= wanted_, "made the wrong number of shots: " + std::to_string(poured_) +
                                              " in the cup of order " + std::to_string(order_) + ", which wanted " +
                                              std::to_string(wanted_));
    });
    // The controller reports the order made.
    on([this](const CoffeeCompleted& e) {
      exocheck::check(e.order == order_ && poured_ == wanted_,
                      "order " + std::to_string(e.order) + " reported made with " + std::to_string(poured_) + " of " +
                          std::to_string(wanted_) + " shots in the cup");
    });
  }

 private:
  int order_ = 0;
  int wanted_ = 0;
  int poured_ = 0;
};

/// Liveness (the sample's LivenessMonitor): an order is finished, by a coffee or by an error (a refill
/// needed), never left hanging.
class OrdersServed : public exocheck::Monitor {
 public:
  OrdersServed() : Monitor("OrdersServed") {
    on([this](const MakeCoffee& e) { hot("coffee order " + std::to_string(e.order) + " is unserved"); });
    on([this](const CoffeeCompleted&) { cold(); });
  }
};

// ---- the hardware --------------------------------------------------------------------------------

/// What filling the empty porta filter takes from the hopper in the sample's test-mode shortcut
/// (98 at once, then 1 for the tick), whatever the hopper holds.
constexpr int kGrindDose = 99;

/// The sample's MockSensors (MockWaterTank and MockCoffeeGrinder in the actors version): the machine's
/// persistent state, which outlives the controller.
class Sensors : public exocheck::Actor {
 public:
  Sensors(int water, int beans, int temperature) : water_(water), hopper_(beans), temperature_(temperature) {
    crashable(false);  // hardware: the reboot is the controller's
    on([this](const Register& m) {
      if (m.boot > registered_) {
        registered_ = m.boot;
        client_ = sender();
        for (auto& timer : timers_) stop(timer);
      }
      reply();
    });
    on([this](const ReadSensors&) { reply(Readings{water_, hopper_, filter_, temperature_}); });
    on([this](const Switch& m) {
      exocheck::Timer& timer = timers_[static_cast<int>(m.device)];
      if (m.boot != registered_) {
        // a stale command: not carried out
      } else if (!m.on) {
        stop(timer);
      } else {
        exocheck::notify<MachineSafety>(TurnedOn{m.device, water_, hopper_});
        // The grinder ticks until it stops itself; the heater and the pump tick once (0.1 s, 1 s).
        if (m.device == Device::kGrinder && !timer.armed()) timer = every(100ms, Tick{m.boot, m.device});
        if (m.device == Device::kHeater && !timer.armed()) timer = after(100ms, Tick{m.boot, m.device});
        if (m.device == Device::kPump && !timer.armed()) timer = after(1s, Tick{m.boot, m.device});
      }
      reply();
    });
    on([this](const Tick& t) {
      stop(timers_[static_cast<int>(t.device)]);
      if (t.device == Device::kHeater) {
        // Test mode jumps to the boiling point, as the sample's does; then a thermostat turns the heater
        // off (the sample's keeps ticking until the controller does: unbounded under exploration).
        temperature_ = 100;
        send(client_, WaterHot{t.boot});
      } else if (t.device == Device::kGrinder) {
        // One tick fills the porta filter (test mode); a full filter or an empty hopper stops the grinder.
        if (hopper_ > 0) {
          hopper_ -= kGrindDose;  // the sensor "gets confused": below zero when the hopper held less
          filter_ = 100;
        }
        send(client_, FilterLevel{t.boot, filter_, hopper_ <= 0});
      } else {
        // One second of running water is a shot; then the pump stops.
        water_ -= 1;
        if (water_ > 0) exocheck::notify<MachineSafety>(ShotPoured{});
        send(client_, ShotDone{t.boot, water_ <= 0});
      }
    });
    on([this](const DumpGrinds& m) {
      if (m.boot == registered_) filter_ = 0;
      reply();
    });
  }

  std::string final_state() const override {
    return "water=" + std::to_string(water_) + " hopper=" + std::to_string(hopper_) +
           " filter=" + std::to_string(filter_) + " temperature=" + std::to_string(temperature_);
  }

 private:
  void stop(exocheck::Timer& timer) {
    if (timer.armed()) cancel(timer);
    timer = {};
  }

  int water_;
  int hopper_;
  int temperature_;
  int filter_ = 0;
  int registered_ = 0;  // the boot whose commands are carried out
  ActorRef client_;
  std::array<exocheck::Timer, 3> timers_;  // by Device
};

// ---- the firmware --------------------------------------------------------------------------------

/// The controller's flash: how many times it has booted. It survives a reboot (restart_as keeps it).
struct BootCount {
  int boots = 0;
};

class CoffeeMachine : public exocheck::Actor {
 public:
  CoffeeMachine(ActorRef sensors, ActorRef driver, std::shared_ptr<BootCount> flash, bool fixed)
      : sensors_(sensors), driver_(driver), boot_(++flash->boots), fixed_(fixed) {
    restart_as<CoffeeMachine>(sensors, driver, flash, fixed);  // a reboot: nothing kept but the boot count
    // An order waits until the machine has booted (the sample defers MakeCoffeeEvent until Ready).
    guard<MakeCoffee>([this] { return state_; },
                      [](State state, const MakeCoffee&) { return state == State::kReady || state == State::kRefill; });
    on([this](const Boot& b) {
      if (b.boot == boot_) check_sensors();
    });
    on([this](const WaterHot& e) {
      if (e.boot == boot_ && state_ == State::kHeating) turn(Device::kHeater, false, [this] { ready(); });
    });
    on([this](const MakeCoffee& m) {
      order_ = m;
      if (state_ == State::kRefill) {
        send(driver_, CoffeeCompleted{m.order, true});
        return;
      }
      state_ = State::kGrinding;
      turn(Device::kGrinder, true, [] {});  // then wait for the porta filter
    });
    on([this](const FilterLevel& e) {
      if (e.boot != boot_ || state_ != State::kGrinding) return;
      if (e.hopper_empty) refill_ = true;  // a later order is refused
      if (e.level >= 100) {
        turn(Device::kGrinder, false, [this] { make_shots(); });
      } else if (e.hopper_empty) {
        turn(Device::kGrinder, false, [this] { finish(true); });
      }
    });
    on([this](const ShotDone& e) {
      if (e.boot != boot_ || state_ != State::kShots) return;
      if (e.water_empty) {
        refill_ = true;
        turn(Device::kPump, false, [this] { finish(true); });
      } else if (++made_ < order_.shots) {
        turn(Device::kPump, true, [] {});
      } else {
        exocheck::notify<MachineSafety>(CoffeeCompleted{order_.order, false});
        finish(false);
      }
    });
    send(self(), Boot{boot_});
  }

  std::string final_state() const override { return refill_ ? "refill required" : "ok"; }

 private:
  enum class State { kBooting, kHeating, kReady, kGrinding, kShots, kRefill };

  template <typename F>
  void turn(Device device, bool on, F then) {
    call<Done>(sensors_, Switch{boot_, device, on}, [then](Done) { then(); });
  }

  void check_sensors() {
    // Take over the sensors, turning off whatever the previous boot left running, and read them.
    call<Done>(sensors_, Register{boot_}, [this](Done) {
      call<Readings>(sensors_, ReadSensors{}, [this](const Readings& r) { check_readings(r); });
    });
  }

  void check_readings(const Readings& r) {
    if (r.water <= 0) refill_ = true;
    // The bug: the sample tests the hopper level with == 0, and a level below zero passes.
    if (fixed_ ? r.hopper <= 0 : r.hopper == 0) refill_ = true;
    if (refill_) {
      ready();
    } else if (r.filter > 0) {
      // Old grinds: no telling how long they have been there.
      call<Done>(sensors_, DumpGrinds{boot_}, [this, r](Done) { heat(r.temperature); });
    } else {
      heat(r.temperature);
    }
  }

  void heat(int temperature) {
    if (temperature >= 100) {
      ready();
      return;
    }
    state_ = State::kHeating;
    turn(Device::kHeater, true, [] {});  // then wait for WaterHot
  }

  void ready() {
    state_ = refill_ ? State::kRefill : State::kReady;
    send(driver_, MachineReady{!refill_});
  }

  void make_shots() {
    state_ = State::kShots;
    made_ = 0;
    exocheck::notify<MachineSafety>(order_);
    turn(Device::kPump, true, [] {});  // then wait for ShotDone
  }

  void finish(bool error) {
    call<Done>(sensors_, DumpGrinds{boot_}, [this, error](Done) {
      state_ = refill_ ? State::kRefill : State::kReady;
      send(driver_, CoffeeCompleted{order_.order, error});
    });
  }

  ActorRef sensors_;
  ActorRef driver_;
  int boot_;
  bool fixed_;
  State state_ = State::kBooting;
  bool refill_ = false;
  MakeCoffee order_;
  int made_ = 0;
};

/// The sample's FailoverDriver without the halting, which is the crash fault's here: it orders coffee
/// by coffee, and orders an unserved one again from a controller that has rebooted.
class FailoverDriver : public exocheck::Actor {
 public:
  FailoverDriver(int coffees, int shots) : coffees_(coffees), shots_(shots) {
    crashable(false);  // the test's customer
    on([this](const MachineReady& m) {
      machine_ = sender();
      if (stopped_) return;
      if (!m.ok) {
        if (outstanding_ != 0) served(true);  // "init failed": the sample's driver stops
        stopped_ = true;
      } else if (outstanding_ != 0) {
        // A controller booted while an order was unserved: it may have died with the old one.
        send(machine_, MakeCoffee{outstanding_, shots_});
      } else {
        order_next();
      }
    });
    on([this](const CoffeeCompleted& c) {
      if (c.order != outstanding_) return;  // a repeated order made twice: served already
      served(c.error);
      if (c.error) {
        stopped_ = true;  // no point trying to make more coffee
      } else {
        order_next();
      }
    });
  }

  std::string final_state() const override {
    return "served " + std::to_string(made_) + " of " + std::to_string(coffees_) + " coffees";
  }

 private:
  void order_next() {
    if (ordered_ == coffees_) return;
    outstanding_ = ++ordered_;
    exocheck::notify<OrdersServed>(MakeCoffee{outstanding_, shots_});
    send(machine_, MakeCoffee{outstanding_, shots_});
  }

  void served(bool error) {
    exocheck::notify<OrdersServed>(CoffeeCompleted{outstanding_, error});
    if (!error) ++made_;
    outstanding_ = 0;
  }

  int coffees_;
  int shots_;
  ActorRef machine_;
  int ordered_ = 0;
  int outstanding_ = 0;  // the order unserved, 0 for none
  int made_ = 0;
  bool stopped_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"coffee-machine: Coyote's fail-over coffee machine; the controller may reboot mid-coffee"};
  int coffees = 2;
  int shots = 2;
  int beans = 50;
  int water = 50;
  int temperature = 20;
  bool fixed = false;
  app.add_option("--coffees", coffees, "coffees the driver orders, one at a time")
      ->check(CLI::Range(1, 3))
      ->capture_default_str();
  app.add_option("--shots", shots, "espresso shots per coffee")->check(CLI::Range(1, 3))->capture_default_str();
  app.add_option("--beans", beans, "hopper level at start, in % (a grind takes 99)")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  app.add_option("--water", water, "water level at start, in % (a shot takes 1)")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  app.add_option("--temperature", temperature, "water temperature at start (100 is hot)")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  app.add_flag("--fixed", fixed, "a booting controller tests the hopper level with <= 0, not == 0");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  exocheck::System system;
  system.add_monitor<MachineSafety>();
  system.add_monitor<OrdersServed>();
  const auto sensors = system.spawn<Sensors>(water, beans, temperature);
  const auto driver = system.spawn<FailoverDriver>(coffees, shots);
  system.spawn<CoffeeMachine>(sensors, driver, std::make_shared<BootCount>(), fixed);
  const int code = system.run();
  if (!system.controlled()) std::cout << "coffee-machine: done" << std::endl;
  return code;
}
