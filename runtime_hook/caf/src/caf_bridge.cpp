#include "caf_bridge.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <typeinfo>

#include <caf/atom.hpp>
#include <caf/mailbox_element.hpp>

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"
#include "identity.hpp"
#include "real_caf.hpp"
#include "type_name.hpp"
#include "wire_messages.hpp"

namespace exocheck::caf_adapter {
namespace {

/// The runtime's actor for one CAF actor (event-based or blocking): every message and timer of it
/// goes through the bridge.
class CafActorProxy : public Actor {
 public:
  explicit CafActorProxy(CafBridge& bridge) {
    on<CafDelivery>([&bridge](const CafDelivery& delivery) { bridge.deliver(delivery); });
    guard<CafDelivery>([&bridge](const CafDelivery& delivery) { return bridge.enabled(delivery); });
    on<CafTimer>([&bridge](const CafTimer& timer) { bridge.fire(timer); });
    guard<CafTimer>([&bridge](const CafTimer& timer) { return bridge.enabled(timer); });
    on<CafStart>([&bridge](const CafStart& start) { bridge.start(start); });
    on<CafAllDone>([&bridge](const CafAllDone& done) { bridge.deliver(done); });
    guard<CafAllDone>([&bridge](const CafAllDone& done) { return bridge.enabled(done); });
    on<CafReceiveTimeout>([&bridge](const CafReceiveTimeout& timeout) { bridge.fire(timeout); });
  }
};

/// Reads which responses a CAF actor waits for. They are protected members; a member pointer
/// named through a derived class reaches them without touching the object's layout.
struct ResponseWaits : caf::scheduled_actor {
  static constexpr auto awaited = &ResponseWaits::awaited_responses_;
  static constexpr auto multiplexed = &ResponseWaits::multiplexed_responses_;
};

struct DetachedFlag : caf::scheduled_actor {
  static bool of(const caf::scheduled_actor& actor) { return (actor.*(&DetachedFlag::getf))(is_detached_flag); }
  static void clear(caf::scheduled_actor& actor) { (actor.*(&DetachedFlag::unsetf))(is_detached_flag); }
};

std::uint64_t request_number(caf::message_id id) {
  return id.request_id().integer_value();
}

}  // namespace

std::string caf_actor_type(const caf::local_actor& actor, std::string_view base_name) {
  const std::string own = actor.name();
  if (own != base_name) return own;
  const std::string type = detail::readable_type_name(typeid(actor).name());
  constexpr std::string_view kStateful = "caf::stateful_actor<";
  if (type.rfind(kStateful, 0) != 0) return type;
  int depth = 0;
  for (std::size_t i = kStateful.size(); i < type.size(); ++i) {
    const bool ends_state = depth == 0 && (type[i] == ',' || type[i] == '>');
    if (ends_state) return type.substr(kStateful.size(), i - kStateful.size());
    depth += type[i] == '<' ? 1 : type[i] == '>' ? -1 : 0;
  }
  return type;
}

CafBridge* CafBridge::instance_ = nullptr;

CafBridge::CafBridge(std::unique_ptr<detail::ControlledMode> mode)
    : mode_(std::move(mode)), runtime_(mode_->runtime()) {
  mode_->runtime().at_quiescence([this] { return end_unreachable(); });
  mode_->runtime().awaited_at_end([this] { return awaited_alive(); });
  // CAF runs each spawned actor's initialization on a scheduler thread, beside caf_main.
  mode_->runtime().start_actors_apart();
  mode_->runtime().refuse_duplicates(
      "messages of a CAF program delivered twice (--duplicate): the adapter does not copy CAF's messages");
  mode_->runtime().end_crashed_by([this](detail::ActorCell& cell) { crash(cell); });
}

void CafBridge::system_constructing(caf::actor_system_config& config) {
  if (instance_ != nullptr) {
    instance_->refuse("a second caf::actor_system (exocheck explores programs with one at a time)");
  }
  auto mode = detail::ControlledMode::from_environment();
  if (!mode) return;
  instance_ = new CafBridge(std::move(mode));  // lives as long as the process
  if (caf::get_or(config, "scheduler.policy", caf::atom("stealing")) == caf::atom("testing")) {
    instance_->refuse(
        "a program that drives CAF's test coordinator itself (scheduler.policy testing, as CAF's testing DSL "
        "does): it decides the schedule, not exocheck");
  }
  config.set("scheduler.policy", caf::atom("testing"));
}

void CafBridge::system_constructed(caf::actor_system& system) {
  system_ = &system;
  scheduler_ = dynamic_cast<caf::scheduler::test_coordinator*>(&system.scheduler());
  if (scheduler_ == nullptr) {
    refuse("an actor system whose scheduler is not CAF's testing one (scheduler.policy), which exocheck drives");
  }
  start_time_ = scheduler_->clock().current_time;
}

std::unique_ptr<Actor> CafBridge::make_proxy() {
  return std::make_unique<CafActorProxy>(*this);
}

void CafBridge::launching(caf::scheduled_actor& actor) {
  // A detached actor's private thread only runs its resume() loop, one message at a time, as the
  // scheduler would: under control it runs on the schedule like any other (CAF reads the flag at
  // launch, enqueue and cleanup only, all after this).
  if (DetachedFlag::of(actor)) DetachedFlag::clear(actor);
  auto construct = [this] { return make_proxy(); };
  ActorRef ref = detail::construct_actor(runtime_, running_, construct);
  detail::ActorCell* cell = ref.cell();
  mode_->runtime().name_type(cell, caf_actor_type(actor, actor.caf::scheduled_actor::name()));
  controlled_.emplace(&actor, Controlled{cell, caf::strong_actor_ptr{actor.ctrl()}, &actor, nullptr});
  registered_.emplace(cell, &actor);
  local_time_[cell] = time_of(running_);
  actor.attach_functor([this, cell](const caf::error& reason) { terminated(cell, reason); });
}

std::uint64_t CafBridge::channel_of(const detail::ActorCell* sender, const detail::ActorCell* receiver) const {
  const std::uint64_t from = sender != nullptr ? std::uint64_t{sender->index} + 1 : 0;
  return from << 32 | receiver->index;
}

bool CafBridge::sending(caf::abstract_actor& receiver, caf::mailbox_element_ptr& element) {
  auto found = controlled_.find(&receiver);
  if (found == controlled_.end() || firing_to_ == &receiver) return false;
  detail::ActorCell* to = found->second.cell;
  // A request to an actor that ended: CAF's closed mailbox answers it at once with
  // request_receiver_down, in the sender's step, as by hand.
  if ((to->destroyed || to->destroy_requested) && element->mid.is_request()) return false;
  auto envelope = std::make_unique<detail::Envelope>();
  envelope->sender = running_;
  envelope->id = next_message_id();
  envelope->receiver = to;
  envelope->type = &types_.type_of(*element, *system_);
  const caf::message_id mid = element->mid;
  if (mid.is_request() && running_ != nullptr) {
    envelope->is_call = true;
    requests_[{running_->index, request_number(mid)}] = envelope->id;
  } else if (mid.is_response()) {
    auto request = requests_.find({to->index, request_number(mid)});
    if (request != requests_.end()) envelope->answers = request->second;
  }
  const std::uint64_t channel = channel_of(running_, to);
  const std::uint64_t position = ++sent_on_channel_[channel];
  envelope->payload = detail::make_payload(CafDelivery{&receiver, found->second.scheduled, found->second.blocking,
                                                       std::move(element), channel, position, time_of(running_)});
  ++in_flight_[to];
  ++sends_;
  last_send_ = {envelope->type, to};
  runtime_.send(std::move(envelope));
  if (controlled_runtime().last_send_lost()) {
    // Lost in flight (--lose): the messages after it on its channel do not wait for it.
    --in_flight_[to];
    lost_on_channel_[channel].insert(position);
    skip_lost(channel);
  }
  return true;
}

void CafBridge::skip_lost(std::uint64_t channel) {
  auto lost = lost_on_channel_.find(channel);
  if (lost == lost_on_channel_.end()) return;
  std::uint64_t& delivered = delivered_on_channel_[channel];
  while (lost->second.erase(delivered + 1) != 0) ++delivered;
}

bool CafBridge::enabled(const CafDelivery& delivery) const {
  auto delivered = delivered_on_channel_.find(delivery.channel);
  const std::uint64_t before = delivered == delivered_on_channel_.end() ? 0 : delivered->second;
  if (delivery.position != before + 1) return false;
  // An actor awaiting a response skips everything else until it comes (a blocking actor's
  // receive takes what it matches and leaves the rest in its mailbox).
  const caf::scheduled_actor* actor = delivery.scheduled;
  if (actor == nullptr) return true;
  const auto& awaited = actor->*ResponseWaits::awaited;
  if (awaited.empty()) return true;
  return delivery.element->mid.is_response() &&
         request_number(delivery.element->mid) == request_number(awaited.front().first);
}

void CafBridge::deliver(const CafDelivery& delivery) {
  ++delivered_on_channel_[delivery.channel];
  skip_lost(delivery.channel);
  if (auto* cell = cell_of(delivery.receiver)) {
    --in_flight_[cell];
    idle_ticks_.erase(cell);
    advance_time(cell, delivery.sent_at);
  }
  failure_.reset();
  if (delivery.blocking != nullptr) {
    real_enqueue(*delivery.blocking, std::move(delivery.element), nullptr);
    wake(*delivery.blocking);
    return;
  }
  real_enqueue(*delivery.scheduled, std::move(delivery.element), nullptr);
  run_jobs();
  mirror_clock(cell_of(delivery.receiver));
  if (failure_) throw std::runtime_error(*failure_);
}

detail::ActorCell* CafBridge::cell_of(const caf::abstract_actor* actor) const {
  auto found = controlled_.find(actor);
  return found != controlled_.end() ? found->second.cell : nullptr;
}

void CafBridge::run_jobs() {
  ran_.clear();
  while (scheduler_->has_job()) {
    auto* actor = dynamic_cast<caf::scheduled_actor*>(scheduler_->jobs.front());
    auto found = actor != nullptr ? controlled_.find(actor) : controlled_.end();
    detail::ActorCell* outer = running_;
    running_ = found != controlled_.end() ? found->second.cell : nullptr;
    if (running_ != nullptr) {
      ran_.emplace_back(actor, running_);
      enter_time_of(running_);
    }
    scheduler_->try_run_once();
    running_ = outer;
  }
  for (auto [actor, cell] : ran_) note_waiting(*actor, *cell);
}

// By hand, CAF ends an actor the moment its last handle goes (exit_reason::unreachable), and its
// end lets go of the handles it held. The adapter's own handle keeps every actor alive, so an
// actor held only by one that ended would never end (a chain a -> b -> c, a done), and caf_main's
// await would wait for ever. While caf_main awaits, at quiescence (nothing but quiescent messages
// left), the adapter lets go of its handle to every actor unreachable() says CAF would have
// ended, until none is left. Not earlier: which step lets go of an actor's last handle depends on
// the order of steps the reductions take as independent. An end that sends (a monitor's down
// message, a link's exit, a stream's close) is refused: by hand that message is sent earlier, in
// some step. Without an await, an actor left so is left alive, as nothing waits for it.
bool CafBridge::end_unreachable() {
  if (!awaiting_) return false;
  bool ended = false;
  for (bool again = true; again;) {
    again = false;
    std::vector<const caf::abstract_actor*> ending;
    for (const auto& [cell, actor] : registered_) {
      if (unreachable(cell, *actor)) ending.push_back(actor);
    }
    for (const caf::abstract_actor* actor : ending) {
      auto found = controlled_.find(actor);
      if (found == controlled_.end() || found->second.blocking != nullptr) continue;  // its thread holds it
      const std::uint64_t sent_before = sends_;
      caf::strong_actor_ptr handle = std::move(found->second.handle);
      handle.reset();  // CAF ends it (terminated()) and destroys its state, dropping what it held
      controlled_.erase(actor);
      if (sends_ != sent_before) {
        refuse("an actor that CAF ends because nothing refers to it any more sends as it ends (" +
               *last_send_.first->name + " to actor " + last_send_.second->id +
               "), as one monitored, linked or in a stream does");
      }
      ended = again = true;
    }
  }
  if (ended) mirror_clock(nullptr);  // their ends cancelled their timers, if any
  return ended;
}

// While caf_main awaits, every actor CAF would have ended is ended (end_unreachable): those left
// are what its await_all_actors_done() would wait for by hand, for ever.
std::vector<const detail::ActorCell*> CafBridge::awaited_alive() const {
  std::vector<const detail::ActorCell*> alive;
  if (!awaiting_) return alive;
  for (const auto& [cell, actor] : registered_) {
    if (!cell->destroyed) alive.push_back(cell);
  }
  std::sort(alive.begin(), alive.end(), [](const auto* a, const auto* b) { return a->index < b->index; });
  return alive;
}

void CafBridge::note_waiting(caf::scheduled_actor& actor, detail::ActorCell& cell) {
  cell.unanswered_requests.clear();
  if (cell.destroyed || cell.destroy_requested) return;
  auto name = [&](caf::message_id id) {
    auto request = requests_.find({cell.index, request_number(id)});
    return request != requests_.end() ? request->second : "request " + std::to_string(request_number(id));
  };
  for (const auto& [id, behavior] : actor.*ResponseWaits::awaited) cell.unanswered_requests.push_back(name(id));
  for (const auto& [id, behavior] : actor.*ResponseWaits::multiplexed) cell.unanswered_requests.push_back(name(id));
}

void CafBridge::terminated(detail::ActorCell* cell, const caf::error& reason) {
  bounce_requests_to(*cell);
  runtime_.destroy(cell);
  registered_.erase(cell);
  in_flight_.erase(cell);
  // CAF calls an actor's end an error only when a handler threw (its default exception handler
  // ends the actor with unhandled_exception). An exit reason the program chose (send_exit or quit
  // with user_shutdown, kill, an error of its own, a linked actor's such end) ends it as meant.
  if (exception_.empty() && reason != caf::make_error(caf::exit_reason::unhandled_exception)) return;
  std::string detail = "actor " + cell->id + " failed: " + system_->render(reason);
  if (!exception_.empty()) detail += " (uncaught exception: " + exception_ + ")";
  exception_.clear();
  if (!failure_) failure_ = std::move(detail);
}

void CafBridge::assertion_failed(const std::string& detail) {
  auto& runtime = mode_->runtime();
  if (!runtime.in_run()) {
    runtime.fail_before_run(detail::proto::RUN_ASSERTION_FAILED,
                            "assertion failed in caf_main before the run: " + detail);
  }
  runtime.end_run_at_failed_step(detail::proto::STEP_ASSERTION_FAILED, detail);
}

void CafBridge::monitor_notified(const Monitor& monitor, const std::string& event) {
  controlled_runtime().notified(monitor, monitor.lanes_of(nullptr), event);
}

std::string CafBridge::next_message_id() {
  return running_ != nullptr ? detail::message_id(running_->id, ++running_->sent)
                             : detail::message_id(detail::kEnvironment, ++main_sent_);
}

// A timer counts apart from the messages: a free run (caf_recording.cpp) cannot tell which step
// armed a timer that never fired, and the messages sent after it keep their names.
std::string CafBridge::next_timer_id(const detail::ActorCell* arming) {
  return (arming != nullptr ? arming->id : std::string(detail::kEnvironment)) + "#t" +
         std::to_string(++timers_armed_[arming]);
}

void CafBridge::refuse(const std::string& construct) {
  mode_->runtime().refuse(construct);
}

void CafBridge::run(bool at_system_end) {
  if (!at_system_end) {
    await_actors();
    return;
  }
  // The system's end: nothing of caf_main's is left to run; the run goes on to its end.
  std::exit(run_on_from_main());
}

}  // namespace exocheck::caf_adapter
