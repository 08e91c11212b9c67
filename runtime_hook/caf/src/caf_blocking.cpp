// Blocking actors as participants (caf_bridge.hpp, "Blocking actors"): caf_main's scoped_actors
// and function views wait in receives on main's thread; the run is driven from those waits, and a
// delivery to the actor caf_main waits in returns into caf_main, whose code up to its next wait is
// the rest of that step.

#include <algorithm>
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
  cell->crash_mark = 0;  // a crash ends an event-based actor only (caf_faults.cpp)
  controlled_.emplace(&actor, Controlled{cell, caf::strong_actor_ptr{actor.ctrl()}, nullptr, &actor});
  local_time_[cell] = time_of(running_);
  BlockingActor state;
  state.cell = cell;
  blocking_.emplace(&actor, std::move(state));
  static_cast<caf::abstract_actor&>(actor).attach_functor(
      [this, cell](const caf::error& reason) { terminated(cell, reason); });
}

bool CafBridge::blocking_wait(caf::blocking_actor& actor, std::optional<caf::blocking_actor::timeout_type> timeout) {
  auto& runtime = controlled_runtime();
  auto found = blocking_.find(&actor);
  if (found == blocking_.end()) refuse("a blocking receive of an actor exocheck does not control");
  BlockingActor& state = found->second;
  detail::ActorCell* cell = state.cell;
  auto begin_wait = [&] {
    ++state.waits;
    state.timed_out = false;
    state.phase = BlockingActor::Phase::waiting;
    if (timeout) {
      arm_receive_timeout(actor, state, *timeout);
    } else {
      cell->unanswered_requests.assign(1, kBlockingReceive);
    }
  };
  if (state.threaded) {
    begin_wait();
    return threaded_wait(actor, state);
  }
  if (runtime.in_run() && !runtime.suspended()) {
    // A handler's receive would wait inside a step, where the run cannot go on.
    refuse("a blocking receive inside an actor's handler (a scoped_actor or a function view used in a step)");
  }
  begin_wait();  // armed by the step caf_main's code belongs to, which ends here
  const int status = run_on_from_main();
  // The run ended (reported) while caf_main waits: nothing will come, as it would not by hand.
  if (!runtime.suspended()) std::exit(status);
  state.phase = BlockingActor::Phase::running;
  cell->unanswered_requests.clear();
  running_ = cell;
  enter_time_of(cell);
  return !state.timed_out;
}

void CafBridge::await_actors() {
  auto& runtime = controlled_runtime();
  if (main_cell_ == nullptr) {
    auto construct = [this] { return make_proxy(); };
    main_cell_ = detail::construct_actor(runtime_, running_, construct).cell();
    runtime.name_type(main_cell_, "caf_main");
    main_cell_->crash_mark = 0;
    // caf_main may end the process itself (exit()) in the middle of its step: the run goes on to
    // its end first, as the system's end would have it.
    std::atexit([] {
      if (instance_ == nullptr || !instance_->controlled_runtime().suspended()) return;
      instance_->end_main_step();
      instance_->controlled_runtime().resume();
    });
  }
  auto envelope = std::make_unique<detail::Envelope>();
  envelope->sender = running_;
  envelope->id = next_message_id();
  envelope->receiver = main_cell_;
  envelope->type = &types_.adapter_type("await_all_actors_done", typeid(CafAllDone));
  envelope->payload = detail::make_payload(CafAllDone{});
  envelope->quiescent = true;  // its guard reads every actor's state, not only caf_main's
  runtime_.send(std::move(envelope));
  awaiting_ = true;
  const int status = run_on_from_main();
  // The run ended (reported) while caf_main waits: as by hand, caf_main would wait for ever.
  if (!runtime.suspended()) std::exit(status);
  running_ = main_cell_;
  enter_time_of(main_cell_);
}

// CAF's await_all_actors_done() returns once its registry counts no running actor. An actor that
// CAF would have ended as unreachable is not waited for: by hand it is gone.
bool CafBridge::enabled(const CafAllDone&) const {
  return std::all_of(registered_.begin(), registered_.end(),
                     [this](const auto& entry) { return unreachable(entry.first, *entry.second); });
}

bool CafBridge::unreachable(const detail::ActorCell* cell, const caf::abstract_actor& actor) const {
  auto in_flight = in_flight_.find(cell);
  if (in_flight != in_flight_.end() && in_flight->second > 0) return false;
  if (actor.ctrl()->strong_refs.load() > 1) return false;  // the adapter's handle is one
  return std::none_of(timers_.begin(), timers_.end(), [cell](const auto& timer) { return timer.second.cell == cell; });
}

void CafBridge::deliver(const CafAllDone&) {
  awaiting_ = false;
  // Every actor's steps come before this one: caf_main goes on at the latest of their times.
  for (const auto& [cell, time] : local_time_) advance_time(main_cell_, time);
  controlled_runtime().suspend_after_step();  // returns into caf_main, whose code is the rest of the step
}

int CafBridge::run_on_from_main() {
  auto& runtime = controlled_runtime();
  if (runtime.suspended()) {
    end_main_step();
    return runtime.resume();
  }
  run_jobs();  // caf_main's spawns start: part of step 0, as a native actor's constructor is
  mirror_clock(nullptr);
  return mode_->run();  // with a fork server, returns in the process that performs the run
}

void CafBridge::end_main_step() {
  run_jobs();  // what caf_main's code spawned or woke runs in its step
  mirror_clock(running_);
  running_ = nullptr;
}

}  // namespace exocheck::caf_adapter
