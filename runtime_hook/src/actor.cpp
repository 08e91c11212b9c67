#include "exocheck/actor.hpp"

#include <algorithm>
#include <stdexcept>

#include "exocheck/check.hpp"

#include "failure_record.hpp"
#include "identity.hpp"
#include "step_execution.hpp"

namespace exocheck {

namespace {
const std::string kEnvironmentId = "env";

bool same_type(const std::type_info* a, const std::type_info* b) {
  return a == b || *a == *b;
}
}  // namespace

const std::string& ActorRef::id() const {
  return cell_ ? cell_->id : kEnvironmentId;
}

Actor::Actor() {
  auto& construction = detail::current_construction();
  if (construction.runtime == nullptr) {
    throw std::logic_error("an exocheck::Actor must be created with spawn<A>(), not constructed directly");
  }
  runtime_ = construction.runtime;
  cell_ = construction.cell;
}

std::string Actor::post(const ActorRef& to, const detail::MessageType& type, detail::Payload payload, bool is_call) {
  if (!to.valid()) {
    throw std::logic_error("actor " + cell_->id + " sent " + *type.name + " to a null ActorRef");
  }
  auto envelope = std::make_unique<detail::Envelope>();
  detail::name_next_message(*envelope, *cell_);
  envelope->sender = cell_;
  envelope->receiver = to.cell();
  envelope->type = &type;
  envelope->payload = std::move(payload);
  envelope->is_call = is_call;
  std::string id = envelope->id;
  runtime_->send(std::move(envelope));
  return id;
}

void Actor::post_reply(const detail::MessageType& type, detail::Payload payload) {
  const detail::Envelope* current = detail::current_envelope();
  if (current == nullptr || !current->is_call || current->sender == nullptr) {
    throw std::logic_error("actor " + cell_->id + " called reply() outside the handler of a synchronous call");
  }
  auto envelope = std::make_unique<detail::Envelope>();
  detail::name_next_message(*envelope, *cell_);
  envelope->sender = cell_;
  envelope->receiver = current->sender;
  envelope->type = &type;
  envelope->payload = std::move(payload);
  envelope->answers = current->id;
  runtime_->send(std::move(envelope));
}

Timer Actor::arm(std::chrono::nanoseconds delay, detail::TimerKind kind, const detail::MessageType& type,
                 detail::Payload payload, std::function<detail::Payload()> again, std::string answers) {
  auto firing = std::make_unique<detail::Envelope>();
  detail::name_next_message(*firing, *cell_);
  firing->sender = cell_;
  firing->receiver = cell_;
  firing->type = &type;
  firing->payload = std::move(payload);
  firing->timer = kind;
  firing->delay = std::max(delay, std::chrono::nanoseconds(0));
  firing->series = firing->id;
  firing->again = std::move(again);
  firing->answers = std::move(answers);
  Timer timer(firing->id);
  runtime_->arm(std::move(firing));
  return timer;
}

void Actor::arm_call_timeout(std::chrono::nanoseconds timeout, std::function<void()> on_timeout) {
  // It answers the call, as the reply does: while the call waits, both are enabled, nothing else.
  const std::string call = cell_->awaiting;
  const Timer timer = arm(timeout, detail::TimerKind::kCallTimeout, detail::message_type_of<Timeout>(),
                          detail::make_payload(Timeout{call}), {}, call);
  cell_->call_timeout = timer.id();
  cell_->on_timeout = std::move(on_timeout);
}

void Actor::cancel(const Timer& timer) {
  if (timer.armed()) runtime_->cancel(cell_, timer.id());
}

ActorRef Actor::sender() const {
  const detail::Envelope* current = detail::current_envelope();
  return ActorRef(current != nullptr ? current->sender : nullptr);
}

void Actor::destroy() {
  runtime_->destroy(cell_);
}

void Actor::monitor(const ActorRef& target) {
  if (!target.valid()) throw std::logic_error("actor " + cell_->id + " monitored a null ActorRef");
  auto envelope = std::make_unique<detail::Envelope>();
  detail::name_next_message(*envelope, *cell_);
  envelope->sender = cell_;
  envelope->receiver = target.cell();
  envelope->type = &detail::message_type_of<MonitorRequest>();
  envelope->payload = detail::make_payload(MonitorRequest{});
  envelope->monitor_request = true;
  envelope->incarnation = cell_->incarnation;
  runtime_->send(std::move(envelope));
}

void Actor::crashable(bool may) {
  cell_->crash_mark = may ? 1 : 0;
}

ActorRef Actor::spawn_child(const std::function<std::unique_ptr<Actor>()>& construct) {
  return detail::construct_actor(*runtime_, cell_, construct);
}

namespace detail {

Construction& current_construction() {
  thread_local Construction construction;
  return construction;
}

const Envelope*& current_envelope() {
  thread_local const Envelope* envelope = nullptr;
  return envelope;
}

ActorRef construct_actor(Runtime& runtime, ActorCell* parent,
                         const std::function<std::unique_ptr<Actor>()>& construct) {
  ActorCell* cell = runtime.create_cell(parent);
  auto& construction = current_construction();
  const Construction outer = construction;
  construction = {&runtime, cell};
  std::unique_ptr<Actor> actor;
  try {
    actor = construct();
  } catch (...) {
    construction = outer;
    throw;
  }
  construction = outer;
  runtime.adopt(cell, std::move(actor));
  return ActorRef(cell);
}

std::unique_ptr<Envelope> down_message(ActorCell& ended, const Watcher& watcher, const char* reason) {
  auto envelope = std::make_unique<Envelope>();
  name_next_message(*envelope, ended);
  envelope->sender = &ended;
  envelope->receiver = watcher.cell;
  envelope->incarnation = watcher.incarnation;
  envelope->type = &message_type_of<Down>();
  envelope->payload = make_payload(Down{ActorRef(&ended), reason});
  return envelope;
}

bool is_enabled(const Envelope& envelope) {
  const ActorCell& cell = *envelope.receiver;
  // A monitor request is answered by an actor that ended too, as it would be while it waits for
  // nothing: a reply's delivery stays the only one enabled at a caller.
  if (envelope.monitor_request) return cell.destroyed || (cell.actor && cell.awaiting.empty());
  if (cell.destroyed || !cell.actor) return false;
  if (!cell.awaiting.empty()) return envelope.answers == cell.awaiting;
  for (const auto& guard : cell.actor->guards_) {
    if (same_type(guard.type, envelope.type->type)) return guard.accepts(envelope.payload.get());
  }
  return true;
}

GuardViews guard_views(const Actor& actor) {
  GuardViews views;
  const auto& guards = actor.guards_;
  if (std::none_of(guards.begin(), guards.end(), [](const auto& guard) { return bool(guard.view); })) return views;
  views.reserve(guards.size());
  for (const auto& guard : guards) views.push_back(guard.view ? guard.view() : nullptr);
  return views;
}

bool rejected_by(const GuardViews& views, const Envelope& envelope) {
  const auto& guards = envelope.receiver->actor->guards_;
  for (std::size_t i = 0; i < guards.size() && i < views.size(); ++i) {
    if (!same_type(guards[i].type, envelope.type->type)) continue;
    return views[i] != nullptr && !guards[i].accepts_in(views[i].get(), envelope.payload.get());
  }
  return false;
}

void name_next_message(Envelope& envelope, ActorCell& sender) {
  envelope.ordinal = ++sender.sent;
  envelope.id = message_id(sender.id, envelope.ordinal);
}

std::unique_ptr<Envelope> next_firing(const Envelope& fired, ActorCell& cell) {
  auto next = std::make_unique<Envelope>();
  name_next_message(*next, cell);
  next->sender = fired.sender;
  next->receiver = fired.receiver;
  next->type = fired.type;
  next->payload = fired.again();
  next->timer = fired.timer;
  next->delay = fired.delay;
  next->series = fired.series;
  next->again = fired.again;
  return next;
}

void dispatch(const Envelope& envelope) {
  ActorCell& cell = *envelope.receiver;
  Runtime& runtime = *cell.actor->runtime_;
  if (!cell.awaiting.empty() && envelope.answers == cell.awaiting) {
    const std::string call = std::move(cell.awaiting);
    cell.awaiting.clear();
    auto continuation = std::move(cell.continuation);
    auto on_timeout = std::move(cell.on_timeout);
    cell.continuation = nullptr;
    cell.on_timeout = nullptr;
    const std::string call_timeout = std::move(cell.call_timeout);
    cell.call_timeout.clear();
    if (envelope.timer == TimerKind::kCallTimeout) {
      runtime.abandon_reply(&cell, call);
      on_timeout();
    } else {
      if (!call_timeout.empty()) runtime.cancel(&cell, call_timeout);  // the reply won
      continuation(envelope);
    }
    return;
  }
  if (envelope.timer == TimerKind::kCallTimeout) return;  // its call was answered (it is cancelled then)
  // A Down that an earlier incarnation asked for (the actor crashed since) is not this one's.
  if (envelope.type == &message_type_of<Down>() && envelope.incarnation != cell.incarnation) return;
  // Armed again before the handler runs, so that the handler may cancel it.
  if (envelope.timer == TimerKind::kPeriodic) runtime.arm(next_firing(envelope, cell));
  for (const auto& handler : cell.actor->handlers_) {
    if (same_type(handler.type, envelope.type->type)) {
      handler.run(envelope.payload.get());
      return;
    }
  }
  throw std::logic_error("actor " + cell.id + " has no handler for " + *envelope.type->name + " (message " +
                         envelope.id + ")");
}

StepVerdict execute_step(const Envelope& envelope) {
  auto& record = failure_record();
  record.assertion.reset();
  current_envelope() = &envelope;
  StepVerdict verdict;
  try {
    dispatch(envelope);
  } catch (const AssertionFailure& failure) {
    verdict = {proto::STEP_ASSERTION_FAILED, failure.what};
  } catch (const std::exception& error) {
    verdict = {proto::STEP_EXCEPTION, error.what()};
  } catch (...) {
    verdict = {proto::STEP_EXCEPTION, "an exception that is not a std::exception"};
  }
  current_envelope() = nullptr;
  if (record.assertion && verdict.outcome != proto::STEP_ASSERTION_FAILED) {
    verdict = {proto::STEP_ASSERTION_FAILED, *record.assertion};  // the handler swallowed it
  }
  return verdict;
}

}  // namespace detail
}  // namespace exocheck
