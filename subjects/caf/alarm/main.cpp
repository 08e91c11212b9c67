// caf-alarm: specification monitors in a CAF 0.17 program (exocheck/caf_monitor.hpp), the CAF
// form of the monitor-order subject. A door is opened and shut again by one actor (open, then the
// close it sends itself); its alarm is armed by another. Two monitors watch them: ShutWhenArmed
// (safety: the door is shut whenever the alarm is armed) and DoorShutInTheEnd (liveness: hot
// while the door is open). The two actors never exchange a message, so only the monitors order
// their steps; the adapter puts every notifying step on the monitors' lane.
//
// The bug: caf_main sends arm to the alarm as it sends open to the door, and arm may come
// between open and close. With --fixed the door arms the alarm itself once it is shut.
// --leave-open: the door never shuts, and a run ends with DoorShutInTheEnd hot (a liveness bug).
//
// Started by hand, CAF delivers arm and open on two threads in either order: a failed check
// aborts as a failed assert() does; a monitor hot at the end is printed.

#include <iostream>

#include "caf/all.hpp"
#include "exocheck/caf_monitor.hpp"

namespace {

using open_atom = caf::atom_constant<caf::atom("open")>;
using close_atom = caf::atom_constant<caf::atom("close")>;
using arm_atom = caf::atom_constant<caf::atom("arm")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  bool leave_open = false;
  config() {
    opt_group{custom_options_, "global"}
        .add(fixed, "fixed", "the door arms the alarm once it is shut")
        .add(leave_open, "leave-open", "the door never shuts (a liveness bug)");
  }
};

struct opened {};
struct shut {};
struct armed {};

/// Safety: the door is shut whenever the alarm is armed.
class shut_when_armed : public exocheck_caf::monitor {
 public:
  shut_when_armed() : monitor("ShutWhenArmed") {
    on<opened>([this](const opened&) { open_ = true; });
    on<shut>([this](const shut&) { open_ = false; });
    on<armed>([this](const armed&) { check(!open_, "the alarm was armed while the door was open"); });
  }

 private:
  bool open_ = false;
};

/// Liveness: an open door is shut again.
class door_shut_in_the_end : public exocheck_caf::monitor {
 public:
  door_shut_in_the_end() : monitor("DoorShutInTheEnd") {
    on<opened>([this](const opened&) { hot("the door is open"); });
    on<shut>([this](const shut&) { cold(); });
  }
};

caf::behavior alarm(caf::event_based_actor* self) {
  return {
      [=](arm_atom) {
        exocheck_caf::notify<shut_when_armed>(armed{}, "armed");
        self->quit();
      },
  };
}

caf::behavior door(caf::event_based_actor* self, caf::actor alarm_of_door, bool fixed, bool leave_open) {
  return {
      [=](open_atom) {
        exocheck_caf::notify<shut_when_armed>(opened{}, "opened");
        exocheck_caf::notify<door_shut_in_the_end>(opened{}, "opened");
        if (leave_open) {
          if (fixed) self->send_exit(alarm_of_door, caf::exit_reason::user_shutdown);  // never to be armed
          self->quit();
          return;
        }
        self->send(self, close_atom::value);
      },
      [=](close_atom) {
        exocheck_caf::notify<shut_when_armed>(shut{}, "shut");
        exocheck_caf::notify<door_shut_in_the_end>(shut{}, "shut");
        if (fixed) self->send(alarm_of_door, arm_atom::value);
        self->quit();
      },
  };
}

}  // namespace

void caf_main(caf::actor_system& sys, const config& cfg) {
  exocheck_caf::add_monitor<shut_when_armed>();
  exocheck_caf::add_monitor<door_shut_in_the_end>();
  auto the_alarm = sys.spawn(alarm);
  auto the_door = sys.spawn(door, the_alarm, cfg.fixed, cfg.leave_open);
  caf::anon_send(the_door, open_atom::value);
  if (!cfg.fixed) caf::anon_send(the_alarm, arm_atom::value);
  sys.await_all_actors_done();
  // Under exocheck a monitor hot here is a liveness bug of the run; by hand it is said.
  for (const auto& hot : exocheck_caf::hot_monitors()) std::cout << "caf-alarm: monitor " << hot << std::endl;
  std::cout << "caf-alarm: done" << std::endl;
}

CAF_MAIN()
