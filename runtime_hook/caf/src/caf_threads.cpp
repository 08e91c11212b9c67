// Actors spawned with blocking_api (caf_bridge.hpp, "Blocking actors"): each runs on a thread of
// its own, as CAF starts it, but only while it holds the baton. Its start is a step of its own
// (a thread begins at a time of its own, after its spawner's step), and a delivery to it while it
// waits in a receive hands it the run until it waits again or ends; what it spawned or woke then
// runs in the same step, as after an event-based actor's. Its thread is started in the run's
// process, never before the run begins, so that a fork server forks one thread only.

#include <algorithm>
#include <chrono>

#include "caf_bridge.hpp"
#include "controlled_runtime.hpp"
#include "real_caf.hpp"

namespace exocheck::caf_adapter {

void CafBridge::blocking_launch(caf::blocking_actor& actor, caf::execution_unit* unit, bool lazy) {
  auto found = blocking_.find(&actor);
  if (found == blocking_.end()) refuse("an actor spawned with blocking_api that exocheck did not see made");
  BlockingActor& state = found->second;
  state.threaded = true;
  state.phase = BlockingActor::Phase::unstarted;
  state.unit = unit;
  state.lazy = lazy;
  registered_.emplace(state.cell, &actor);
  ++in_flight_[state.cell];  // its start
  controlled_runtime().name_type(state.cell, caf_actor_type(actor, actor.caf::blocking_actor::name()));
  auto envelope = std::make_unique<detail::Envelope>();
  envelope->sender = running_;
  envelope->id = next_message_id();
  envelope->receiver = state.cell;
  envelope->type = &types_.adapter_type("start", typeid(CafStart));
  envelope->payload = detail::make_payload(CafStart{&actor, time_of(running_)});
  runtime_.send(std::move(envelope));
}

void CafBridge::start(const CafStart& start) {
  --in_flight_[blocking_.at(start.actor).cell];
  advance_time(blocking_.at(start.actor).cell, start.sent_at);
  run_thread(*start.actor, blocking_.at(start.actor), true);
}

void CafBridge::run_thread(caf::blocking_actor& actor, BlockingActor& state, bool launch) {
  failure_.reset();
  detail::ActorCell* outer = running_;
  running_ = state.cell;
  state.phase = BlockingActor::Phase::running;
  enter_time_of(state.cell);
  baton_holder_ = &actor;
  baton_.give(&actor);
  if (launch) real_launch(actor, state.unit, state.lazy, false);
  baton_.await_return();
  baton_holder_ = nullptr;
  running_ = outer;
  run_jobs();
  mirror_clock(state.cell);
  if (failure_) throw std::runtime_error(*failure_);
}

bool CafBridge::threaded_wait(caf::blocking_actor& actor, BlockingActor& state) {
  baton_.hand_back_and_await(&actor);
  // run_thread() made this actor the one running.
  state.cell->unanswered_requests.clear();
  return !state.timed_out;
}

void CafBridge::thread_ending() {
  if (std::this_thread::get_id() == run_thread_ || baton_holder_ == nullptr) return;
  blocking_.at(baton_holder_).phase = BlockingActor::Phase::ended;
  baton_.hand_back();
}

void CafBridge::wake(caf::blocking_actor& actor) {
  auto found = blocking_.find(&actor);
  if (found == blocking_.end() || found->second.phase != BlockingActor::Phase::waiting) return;
  BlockingActor& state = found->second;
  if (!state.timeout_series.empty()) {
    runtime_.cancel(state.cell, state.timeout_series);
    state.timeout_series.clear();
  }
  if (state.threaded) {
    run_thread(actor, state, false);
  } else {
    controlled_runtime().suspend_after_step();  // caf_main's code is the rest of the step
  }
}

void CafBridge::arm_receive_timeout(caf::blocking_actor& actor, BlockingActor& state,
                                    caf::blocking_actor::timeout_type timeout) {
  using Clock = caf::blocking_actor::timeout_type::clock;
  // CAF made the deadline from the clock a moment ago: rounded up to a millisecond, the delay is
  // the one the program gave, the same in every run.
  const auto delay = std::chrono::ceil<std::chrono::milliseconds>(std::max(timeout - Clock::now(), Clock::duration{0}));
  auto firing = std::make_unique<detail::Envelope>();
  firing->sender = running_;
  // Named by what the actor's receives got before it, not by the timers armed: a receive waits
  // (and arms one) only when the mailbox is empty, which in a free run depends on timing, and a
  // recording names a timeout that fired so (CafRecording::blocking_timed_out). A wait again for
  // the same count (after a message no handler matched) is named as any timer.
  if (state.taken + 1 > state.named) {
    state.named = state.taken + 1;
    firing->id = state.cell->id + "#w" + std::to_string(state.named);
  } else {
    firing->id = next_timer_id(running_);
  }
  firing->receiver = state.cell;
  firing->type = &types_.adapter_type("timeout:blocking receive", typeid(CafReceiveTimeout));
  firing->payload = detail::make_payload(CafReceiveTimeout{&actor, state.waits});
  firing->timer = detail::TimerKind::kOnce;
  firing->delay = delay;
  firing->series = firing->id;
  state.timeout_series = firing->series;
  runtime_.arm(std::move(firing));
}

void CafBridge::fire(const CafReceiveTimeout& timeout) {
  auto found = blocking_.find(timeout.actor);
  if (found == blocking_.end()) return;
  BlockingActor& state = found->second;
  if (state.phase != BlockingActor::Phase::waiting || state.waits != timeout.wait) return;
  state.timeout_series.clear();
  state.timed_out = true;
  ++state.taken;
  wake(*timeout.actor);
}

void CafBridge::blocking_taking(const caf::abstract_actor& actor, bool took) {
  auto found = blocking_.find(&actor);
  if (found == blocking_.end()) return;
  if (took) {
    ++found->second.taken;
  } else {
    --found->second.taken;
  }
}

}  // namespace exocheck::caf_adapter
