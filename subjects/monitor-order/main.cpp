// monitor-order: two actors that never talk to each other notify one specification monitor,
// whose invariant holds in one order of their notifications and not in the other. A door is
// opened by one actor and its alarm armed by another; the monitor requires the door to be shut
// again before the alarm is armed. Nothing orders the two actors, so the violation is one
// interleaving of two independent-looking deliveries: a reduction that did not know both steps
// touch the monitor would take the two orders for one class and could miss it (DESIGN.md,
// "Specifications"; coordinator/engine/src/dependency.md, "Specification monitors").
//
// The door's actor opens and shuts it in two steps (Open, then Shut, which it sends itself); the
// alarm's arms it on Arm. The bug: Arm delivered between Open and Shut. With --fixed the alarm's
// actor asks the door's first, and arms only once it is told the door is shut.
//
// --bystanders N adds N actors that each take one step and notify nothing.
// --window adds a window, opened and shut by its own actor as the door is, which the alarm needs
// shut too. The monitor keeps the door and the window in two parts (Monitor::in_part): their
// notifications commute, only the alarm's touches both, and the exploration does not try the
// door's and the window's orders against each other. --whole declares no parts: every order of
// the five notifications is a class of its own.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Opened {};
struct Shut {};
struct WindowOpened {};
struct WindowShut {};
struct Armed {};

bool g_parts = true;  // --whole: the monitor declares no parts

/// The door and the window must be shut whenever the alarm is armed.
class ShutWhenArmed : public exocheck::Monitor {
 public:
  ShutWhenArmed() : Monitor("ShutWhenArmed") {
    on([this](const Opened&) { door_open_ = true; });
    on([this](const Shut&) { door_open_ = false; });
    on([this](const WindowOpened&) { window_open_ = true; });
    on([this](const WindowShut&) { window_open_ = false; });
    on([this](const Armed&) {
      exocheck::check(!door_open_, "the alarm was armed while the door was open");
      exocheck::check(!window_open_, "the alarm was armed while the window was open");
    });
    if (!g_parts) return;
    in_part<Opened>("door");
    in_part<Shut>("door");
    in_part<WindowOpened>("window");
    in_part<WindowShut>("window");
  }

 private:
  bool door_open_ = false;
  bool window_open_ = false;
};

struct Open {};
struct Close {};
struct Arm {};
struct AskShut {};
struct IsShut {};
struct Nudge {};

/// The door, or with `window` the window.
class Door : public exocheck::Actor {
 public:
  explicit Door(bool window = false) {
    on([this, window](const Open&) {
      if (window) {
        exocheck::notify<ShutWhenArmed>(WindowOpened{});
      } else {
        exocheck::notify<ShutWhenArmed>(Opened{});
      }
      send(self(), Close{});
    });
    on([this, window](const Close&) {
      if (window) {
        exocheck::notify<ShutWhenArmed>(WindowShut{});
      } else {
        exocheck::notify<ShutWhenArmed>(Shut{});
      }
      shut_ = true;
      if (asked_.valid()) send(asked_, IsShut{});
    });
    on([this](const AskShut&) {
      if (shut_) {
        send(sender(), IsShut{});
      } else {
        asked_ = sender();
      }
    });
  }

 private:
  bool shut_ = false;
  exocheck::ActorRef asked_;
};

/// Arms the alarm; with `fixed`, once each of `shut` (the door, the window) says it is shut.
class Alarm : public exocheck::Actor {
 public:
  Alarm(std::vector<exocheck::ActorRef> shut, bool fixed) {
    on([this, shut, fixed](const Arm&) {
      if (fixed) {
        for (const auto& ref : shut) send(ref, AskShut{});
      } else {
        exocheck::notify<ShutWhenArmed>(Armed{});
      }
    });
    on([this, shut](const IsShut&) {
      if (++told_ == shut.size()) exocheck::notify<ShutWhenArmed>(Armed{});
    });
  }

 private:
  std::size_t told_ = 0;
};

class Bystander : public exocheck::Actor {
 public:
  Bystander() {
    on([](const Nudge&) {});
  }
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("monitor-order: a door, an alarm and a monitor that wants the door shut when armed");
  bool fixed = false;
  bool window = false;
  bool whole = false;
  int bystanders = 0;
  app.add_flag("--fixed", fixed, "The alarm arms only once the door says it is shut");
  app.add_option("--bystanders", bystanders, "Actors that take one step each and notify nothing")
      ->check(CLI::Range(0, 8));
  app.add_flag("--window", window, "A window too, opened and shut by its own actor, that must be shut when armed");
  app.add_flag("--whole", whole,
               "The monitor declares no parts: the door's and the window's notifications do not commute");
  CLI11_PARSE(app, argc, argv);
  g_parts = !whole;

  exocheck::System system;
  system.add_monitor<ShutWhenArmed>();
  auto door = system.spawn<Door>();
  std::vector<exocheck::ActorRef> shut{door};
  if (window) shut.push_back(system.spawn<Door>(true));
  auto alarm = system.spawn<Alarm>(shut, fixed);
  std::vector<exocheck::ActorRef> others;
  for (int i = 0; i < bystanders; ++i) others.push_back(system.spawn<Bystander>());
  // Arm first: the first run (messages in send order) arms before the door opens, and passes.
  system.send(alarm, Arm{});
  system.send(door, Open{});
  if (window) system.send(shut.back(), Open{});
  for (const auto& other : others) system.send(other, Nudge{});
  return system.run();
}
