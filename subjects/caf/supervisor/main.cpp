// caf-supervisor: a dispatcher hands tasks to a worker it monitors and, when the worker goes down,
// spawns another and sends it the tasks not done yet: at-least-once redelivery under supervision,
// as Erlang/OTP's design principles ("Supervisor Behaviour") and CAF's manual ("Monitors": a down
// message tells the monitor that, and why, an actor ended) describe it. The dispatcher requests
// (task, i) from the worker for i = 1..tasks; the worker answers with its result, which the
// dispatcher passes to the collector; once every task is answered it tells the collector `finish`
// (after the results, on the same channel), and the collector asserts it has every result.
//
// The bug needs a crash (exocheck explore --crash 1 --crash-types worker): a request still on its
// way to a worker that went down is answered by CAF with an error (sec::request_receiver_down), and
// the dispatcher counts a task whose request failed as done ("its worker is gone, nothing to wait
// for"), so a task queued at the crashed worker is never done again. With --fixed a failed request
// leaves its task pending, and the down handler sends the pending tasks to the new worker.

#include <cassert>
#include <iostream>
#include <set>

#include "caf/all.hpp"

namespace {

using task_atom = caf::atom_constant<caf::atom("task")>;
using result_atom = caf::atom_constant<caf::atom("result")>;
using finish_atom = caf::atom_constant<caf::atom("finish")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  int tasks = 2;
  config() {
    opt_group{custom_options_, "global"}
        .add(fixed, "fixed", "a task whose request failed stays pending until a worker does it")
        .add(tasks, "tasks", "how many tasks the dispatcher hands out");
  }
};

struct collector_state {
  std::set<int> results;
  static inline const char* name = "collector";
};

/// Gathers the results; at `finish`, every task's must be there.
caf::behavior collector(caf::stateful_actor<collector_state>* self, int tasks) {
  return {
      [=](result_atom, int task) { self->state.results.insert(task); },
      [=](finish_atom) {
        std::cout << "supervisor: " << self->state.results.size() << " of " << tasks << " results" << std::endl;
        assert(static_cast<int>(self->state.results.size()) == tasks);
        self->quit();
      },
  };
}

struct worker_state {
  static inline const char* name = "worker";
};

/// Does a task: its result is its number.
caf::behavior worker(caf::stateful_actor<worker_state>*) {
  return {
      [=](task_atom, int task) { return task; },
  };
}

struct dispatcher_state {
  caf::actor worker;
  std::set<int> pending;  ///< handed out, not answered
  static inline const char* name = "dispatcher";
};

using dispatcher_actor = caf::stateful_actor<dispatcher_state>;

void hire(dispatcher_actor* self) {
  self->state.worker = self->spawn(worker);
  self->monitor(self->state.worker);
}

void done(dispatcher_actor* self, const caf::actor& results, int task) {
  if (self->state.pending.erase(task) == 0 || !self->state.pending.empty()) return;
  self->send(results, finish_atom::value);
  self->send_exit(self->state.worker, caf::exit_reason::user_shutdown);
  self->quit();
}

void hand_out(dispatcher_actor* self, const caf::actor& results, int task, bool fixed) {
  self->request(self->state.worker, caf::infinite, task_atom::value, task)
      .then(
          [=](int result) {
            self->send(results, result_atom::value, result);
            done(self, results, task);
          },
          [=](caf::error&) {
            if (!fixed) done(self, results, task);  // the bug: a failed task counted as done
          });
}

caf::behavior dispatcher(dispatcher_actor* self, const caf::actor& results, int tasks, bool fixed) {
  self->set_down_handler([=](caf::down_msg& down) {
    if (down.source != self->state.worker.address() || self->state.pending.empty()) return;
    hire(self);
    for (int task : self->state.pending) hand_out(self, results, task, fixed);
  });
  hire(self);
  for (int task = 1; task <= tasks; ++task) {
    self->state.pending.insert(task);
    hand_out(self, results, task, fixed);
  }
  return {
      [](finish_atom) {},  // a behavior of its own: it ends by quit(), not when its requests are answered
  };
}

}  // namespace

void caf_main(caf::actor_system& sys, const config& cfg) {
  auto results = sys.spawn(collector, cfg.tasks);
  sys.spawn(dispatcher, results, cfg.tasks, cfg.fixed);
}

CAF_MAIN()
