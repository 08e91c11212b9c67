// Blocking actors as participants (caf_bridge.hpp, "Blocking actors"): caf_main's scoped_actors
// and function views wait in receives on main's thread; the run is driven from those waits, and a
// delivery to the actor caf_main waits in returns into caf_main, whose code up to its next wait is
// the rest of that step.

#include <cstdlib>

#include "caf_bridge.hpp"
#include "controlled_runtime.hpp"

namespace exocheck::caf_adapter {
namespace {

/// What a deadlock report says a blocking actor waits for.
constexpr const char* kBlockingReceive = "a message (blocking receive)";

}  // namespace

detail::ControlledRuntime& CafBridge::controlled_runtime() {
  return mode_->runtime();
}

void CafBridge::blocking_created(caf::blocking_actor& actor) {
  auto construct = [this] { return make_proxy(); };
  ActorRef ref = detail::construct_actor(runtime_, running_, construct);
  detail::ActorCell* cell = ref.cell();
  controlled_runtime().name_type(cell, "caf::blocking_actor");
  controlled_.emplace(&actor, Controlled{cell, caf::strong_actor_ptr{actor.ctrl()}});
  static_cast<caf::abstract_actor&>(actor).attach_functor(
      [this, cell](const caf::error& reason) { terminated(cell, reason); });
}

void CafBridge::blocking_wait(caf::blocking_actor& actor) {
  auto& runtime = controlled_runtime();
  detail::ActorCell* cell = cell_of(&actor);
  if (cell == nullptr) refuse("a blocking receive of an actor exocheck does not control");
  if (runtime.in_run() && !runtime.suspended() && !runtime.holds_result()) {
    // A handler's receive would wait inside a step, where the run cannot go on.
    refuse("a blocking receive inside an actor's handler (a scoped_actor or a function view used in a step)");
  }
  if (runtime.holds_result()) {
    refuse("caf_main waits in a receive after an await_all_actors_done() (exocheck explores caf_main up to that call)");
  }
  cell->unanswered_requests.assign(1, kBlockingReceive);
  waiting_in_ = &actor;
  int status = 0;
  if (runtime.suspended()) {
    end_main_step();
    status = runtime.resume();
  } else {
    run_jobs();  // caf_main's spawns start: step 0, as at the end of caf_main
    mirror_clock(nullptr);
    status = mode_->run();  // with a fork server, returns in the process that performs the run
  }
  waiting_in_ = nullptr;
  // The run ended (reported) while caf_main waits: nothing will come, as it would not by hand.
  if (!runtime.suspended()) std::exit(status);
  cell->unanswered_requests.clear();
  running_ = cell;
}

void CafBridge::end_main_step() {
  run_jobs();  // what caf_main's code spawned or woke runs in its step
  mirror_clock(running_);
  running_ = nullptr;
}

}  // namespace exocheck::caf_adapter
