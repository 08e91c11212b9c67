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

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "exocheck/exocheck.hpp"

namespace {

struct Opened {};
struct Shut {};
struct Armed {};

/// The door must be shut whenever the alarm is armed.
class ShutWhenArmed : public exocheck::Monitor {
 public:
  ShutWhenArmed() : Monitor("ShutWhenArmed") {
    on([this](const Opened&) { open_ = true; });
    on([this](const Shut&) { open_ = false; });
    on([this](const Armed&) { exocheck::check(!open_, "the alarm was armed while the door was open"); });
  }

 private:
  bool open_ = false;
};

struct Open {};
struct Close {};
struct Arm {};
struct AskShut {};
struct IsShut {};
struct Nudge {};

class Door : public exocheck::Actor {
 public:
  Door() {
    on([this](const Open&) {
      exocheck::notify<ShutWhenArmed>(Opened{});
      send(self(), Close{});
    });
    on([this](const Close&) {
      exocheck::notify<ShutWhenArmed>(Shut{});
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

class Alarm : public exocheck::Actor {
 public:
  Alarm(exocheck::ActorRef door, bool fixed) {
    on([this, door, fixed](const Arm&) {
      if (fixed) {
        send(door, AskShut{});
      } else {
        exocheck::notify<ShutWhenArmed>(Armed{});
      }
    });
    on([](const IsShut&) { exocheck::notify<ShutWhenArmed>(Armed{}); });
  }
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
  int bystanders = 0;
  app.add_flag("--fixed", fixed, "The alarm arms only once the door says it is shut");
  app.add_option("--bystanders", bystanders, "Actors that take one step each and notify nothing")
      ->check(CLI::Range(0, 8));
  CLI11_PARSE(app, argc, argv);

  exocheck::System system;
  system.add_monitor<ShutWhenArmed>();
  auto door = system.spawn<Door>();
  auto alarm = system.spawn<Alarm>(door, fixed);
  std::vector<exocheck::ActorRef> others;
  for (int i = 0; i < bystanders; ++i) others.push_back(system.spawn<Bystander>());
  // Arm first: the first run (messages in send order) arms before the door opens, and passes.
  system.send(alarm, Arm{});
  system.send(door, Open{});
  for (const auto& other : others) system.send(other, Nudge{});
  return system.run();
}
