#pragma once
// Actors: private state, typed message handlers, guards, spawn, send, call/reply, timers, destroy.
//
//   class Registry : public exocheck::Actor {
//    public:
//     Registry() {
//       on<Register>([this](const Register& m) { members_.push_back(m.who); });
//       guard<Lookup>([this](const Lookup&) { return !members_.empty(); });
//     }
//   };
//
// A guard may also be written as a test of a view of the state it reads, so that the explorer
// can test it against the actor's earlier states without running a schedule:
//
//       guard<Lookup>([this] { return members_.size(); },
//                     [](std::size_t members, const Lookup&) { return members > 0; });
//
// Handlers and guards are registered in the constructor. A handler runs as one atomic
// macro-step. Construction code (including spawns and sends) belongs to the step that spawned
// the actor, or to main's initial step.
//
// Timers: after(d, m) delivers m to the actor itself after d, every(d, m) every d until
// cancel(timer), and call(to, m, then, d, on_timeout) gives up on the reply after d. Started by
// hand they use real time. Under exploration no time passes: an armed timer is a pending message
// of its actor, and the schedule chooses when it fires (`--timers`), so a timeout is explored
// against the reply it races with.
//
// Monitors and faults: monitor(a) asks to be told, by a Down message, when a ends (destroyed,
// failed, or crashed). Under exploration with --crash, --lose or --duplicate, the explorer injects
// faults as choices of the steps they happen in (DESIGN.md, "Faults"): an actor may crash after a
// step, its monitors told: it ends (what is pending for it a dead letter) or, if it said
// restart_as<A>(...), is made again at its id, messages from others waiting for it; a message may be lost in flight or
// delivered twice. An actor narrows what may happen to it with crashable(false), a message type with `static constexpr
// bool lossy = false;`.

#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "exocheck/detail/actor_cell.hpp"
#include "exocheck/detail/runtime.hpp"
#include "exocheck/message.hpp"

namespace exocheck {

/// A handle on an actor. Cheap to copy; valid for the lifetime of the System.
class ActorRef {
 public:
  ActorRef() = default;
  explicit ActorRef(detail::ActorCell* cell) : cell_(cell) {}

  /// The spawn-tree path ("0.2"), or "env" for a null reference.
  const std::string& id() const;
  bool valid() const { return cell_ != nullptr; }
  detail::ActorCell* cell() const { return cell_; }

  friend bool operator==(const ActorRef&, const ActorRef&) = default;
  friend std::ostream& operator<<(std::ostream& out, const ActorRef& ref) { return out << ref.id(); }

 private:
  detail::ActorCell* cell_ = nullptr;
};

/// A timer an actor armed, for cancel(). Cheap to copy.
class Timer {
 public:
  Timer() = default;
  /// The timer's name: the id of its first firing ("0#3"); "" for no timer.
  const std::string& id() const { return id_; }
  bool armed() const { return !id_.empty(); }
  friend bool operator==(const Timer&, const Timer&) = default;

 private:
  friend class Actor;
  explicit Timer(std::string id) : id_(std::move(id)) {}
  std::string id_;
};

/// What a call's timeout delivers to its own actor (traces show it; on_timeout receives nothing).
struct Timeout {
  static constexpr const char* type_name = "Timeout";
  std::string call;  ///< the id of the call that timed out
  void describe(Describer& d) const { d("call", call); }
};

/// What a monitor receives when the actor it monitors ends. Sent by that actor as it ends.
struct Down {
  static constexpr const char* type_name = "Down";
  static constexpr bool lossy = false;  // as Erlang's and CAF's runtimes promise it
  ActorRef actor;
  /// "destroyed", "failed" (a failed check or an exception), "crashed" (a fault the explorer
  /// injected), or "not running" (it had ended when monitor() asked).
  std::string reason;
  void describe(Describer& d) const { d("actor", actor)("reason", reason); }
};

/// The request Actor::monitor() sends; the runtime handles it at the monitored actor, so that it
/// is ordered with that actor's end as the actor's own steps are.
struct MonitorRequest {
  static constexpr const char* type_name = "Monitor";
  static constexpr bool lossy = false;
};

namespace detail {
template <typename M>
constexpr signed char lossy_mark() {
  if constexpr (LossyMarkedMessage<M>) {
    return M::lossy ? 1 : 0;
  } else {
    return -1;
  }
}

template <typename M>
const MessageType& message_type_of() {
  static const MessageType type{
      &typeid(M), &type_name<M>(), [](const void* p) { return summary_of(*static_cast<const M*>(p)); },
      [](const void* p) { return make_payload(M(*static_cast<const M*>(p))); }, lossy_mark<M>()};
  return type;
}

template <typename F>
struct handler_traits : handler_traits<decltype(&std::decay_t<F>::operator())> {};
template <typename C, typename R, typename A>
struct handler_traits<R (C::*)(A) const> {
  using argument = std::decay_t<A>;
};
template <typename C, typename R, typename A>
struct handler_traits<R (C::*)(A)> {
  using argument = std::decay_t<A>;
};
}  // namespace detail

/// Base class of every actor.
class Actor {
 public:
  Actor();
  virtual ~Actor() = default;
  Actor(const Actor&) = delete;
  Actor& operator=(const Actor&) = delete;

  /// A printable summary of the actor's final state ("" = none); compared across paths
  /// by determinism checking, so it must not contain addresses or timing.
  virtual std::string final_state() const { return {}; }

  /// This actor.
  ActorRef self() const { return ActorRef(cell_); }

 protected:
  /// Handles messages of type M (deduced from the handler's parameter, or given explicitly).
  template <typename M, typename F>
  void on(F&& handler) {
    handlers_.push_back({&typeid(M), [h = std::forward<F>(handler)](const void* p) { h(*static_cast<const M*>(p)); }});
  }
  template <typename F>
  void on(F&& handler) {
    on<typename detail::handler_traits<F>::argument>(std::forward<F>(handler));
  }

  /// Messages of type M stay pending while `accepts` returns false (a guard). It must only
  /// read the actor's state.
  template <typename M, typename F>
  void guard(F&& accepts) {
    guards_.push_back(
        {&typeid(M), [g = std::forward<F>(accepts)](const void* p) { return g(*static_cast<const M*>(p)); }, {}, {}});
  }

  /// The same guard, as `accepts(view(), message)`: `view` returns a copy of what the guard reads
  /// of the actor's state, and `accepts` reads nothing else. Under exploration the hook keeps the
  /// views of the actor's latest steps and tests each message sent to it against them: a message
  /// they reject could not have been received there, and race analysis knows it without running
  /// a schedule to find out (dependency.md, "Guards and races").
  template <typename M, typename View, typename F>
  void guard(View view, F accepts) {
    using Snapshot = std::decay_t<std::invoke_result_t<View&>>;
    guards_.push_back(
        {&typeid(M), [view, accepts](const void* p) mutable { return accepts(view(), *static_cast<const M*>(p)); },
         [view]() mutable -> std::shared_ptr<const void> { return std::make_shared<const Snapshot>(view()); },
         [accepts](const void* kept, const void* p) mutable {
           return accepts(*static_cast<const Snapshot*>(kept), *static_cast<const M*>(p));
         }});
  }

  /// Creates a child actor `self().k`; its constructor runs now, inside this step.
  template <typename A, typename... Args>
  ActorRef spawn(Args&&... args);

  /// Sends `message` asynchronously; it becomes pending at `to`.
  template <typename M>
  void send(const ActorRef& to, M message) {
    post(to, detail::message_type_of<M>(), detail::make_payload(std::move(message)), false);
  }

  /// Sends `message` and blocks this actor until the reply arrives: this step ends here, and
  /// `then(reply)` runs as a new step when the reply (of type R) is delivered.
  template <typename R, typename M, typename F>
  void call(const ActorRef& to, M message, F&& then) {
    auto id = post(to, detail::message_type_of<M>(), detail::make_payload(std::move(message)), true);
    cell_->awaiting = std::move(id);
    cell_->continuation = [f = std::forward<F>(then)](const detail::Envelope& reply) {
      if (reply.type->type != &typeid(Reply<R>) && *reply.type->type != typeid(Reply<R>)) {
        throw std::logic_error("reply " + reply.id + " is " + reply.type->summarize(reply.payload.get()) +
                               ", the call expected Reply<" + type_name<R>() + ">");
      }
      f(static_cast<const Reply<R>*>(reply.payload.get())->value);
    };
  }

  /// The same call, given up after `timeout`: exactly one of `then(reply)` and `on_timeout()` runs,
  /// as a new step; a reply that comes after the timeout is dropped, a timeout after the reply never fires.
  template <typename R, typename M, typename F, typename G>
  void call(const ActorRef& to, M message, F&& then, std::chrono::nanoseconds timeout, G&& on_timeout) {
    call<R>(to, std::move(message), std::forward<F>(then));
    arm_call_timeout(timeout, std::function<void()>(std::forward<G>(on_timeout)));
  }

  /// Arms a one-shot timer: `message` is delivered to this actor after `delay`.
  template <typename M>
  Timer after(std::chrono::nanoseconds delay, M message) {
    return arm(delay, detail::TimerKind::kOnce, detail::message_type_of<M>(), detail::make_payload(std::move(message)),
               {});
  }
  /// Arms a periodic timer: `message` (copied each time) is delivered to this actor every `period`
  /// until the timer is cancelled.
  template <typename M>
  Timer every(std::chrono::nanoseconds period, M message) {
    std::function<detail::Payload()> again = [message] { return detail::make_payload(M(message)); };
    return arm(period, detail::TimerKind::kPeriodic, detail::message_type_of<M>(), again(), again);
  }
  /// Cancels `timer`: a firing of it not delivered yet never is. Cancelling a timer that already
  /// fired (a one-shot one) or was cancelled does nothing.
  void cancel(const Timer& timer);

  /// Answers the call being handled with `value` (the caller's continuation receives it).
  template <typename T>
  void reply(T value) {
    post_reply(detail::message_type_of<Reply<T>>(), detail::make_payload(Reply<T>{std::move(value)}));
  }
  void reply() { reply(Done{}); }

  /// The sender of the message being handled (null reference for main).
  ActorRef sender() const;

  /// Ends this actor after the current step; messages pending for it become dead letters.
  void destroy();

  /// Tells this actor when `target` ends: a Down message from it (handle it with on<Down>), once.
  /// If it has already ended, the Down says "not running".
  void monitor(const ActorRef& target);

  /// Under --crash: whether this actor may crash. The program's word wins over --crash-types and
  /// --crash-actors; an actor that says nothing may crash when each of them names it (its type, its
  /// id), or names none.
  void crashable(bool may = true);

  /// Under --crash: after each crash the actor is made again at its id by `A(args...)` (copies of
  /// `args` taken now), as a supervisor restarts a process: its state from scratch or from what
  /// `args` kept (a shared "disk"); its own timers and the replies to its calls are lost, messages
  /// from others, and those it sent itself before the crash, wait for the new incarnation. Call it
  /// in the constructor.
  template <typename A, typename... Args>
  void restart_as(Args... args) {
    static_assert(std::is_base_of_v<Actor, A>, "restart_as<A>: A must derive from exocheck::Actor");
    cell_->factory = [args...] { return std::unique_ptr<Actor>(new A(args...)); };
  }

 private:
  friend bool detail::is_enabled(const detail::Envelope&);
  friend detail::GuardViews detail::guard_views(const Actor&);
  friend bool detail::rejected_by(const detail::GuardViews&, const detail::Envelope&);
  friend void detail::dispatch(const detail::Envelope&);

  struct Handler {
    const std::type_info* type;
    std::function<void(const void*)> run;
  };
  struct Guard {
    const std::type_info* type;
    std::function<bool(const void*)> accepts;
    // A guard with a view: a copy of what it reads, and its test of a message against such a copy.
    std::function<std::shared_ptr<const void>()> view;
    std::function<bool(const void*, const void*)> accepts_in;
  };

  std::string post(const ActorRef& to, const detail::MessageType& type, detail::Payload payload, bool is_call);
  Timer arm(std::chrono::nanoseconds delay, detail::TimerKind kind, const detail::MessageType& type,
            detail::Payload payload, std::function<detail::Payload()> again, std::string answers = {});
  void arm_call_timeout(std::chrono::nanoseconds timeout, std::function<void()> on_timeout);
  void post_reply(const detail::MessageType& type, detail::Payload payload);
  ActorRef spawn_child(const std::function<std::unique_ptr<Actor>()>& construct);

  detail::Runtime* runtime_;
  detail::ActorCell* cell_;
  std::vector<Handler> handlers_;
  std::vector<Guard> guards_;
};

namespace detail {
/// Runs `construct` with `cell` as the actor under construction, then hands it to the runtime.
ActorRef construct_actor(Runtime& runtime, ActorCell* parent, const std::function<std::unique_ptr<Actor>()>& construct);
}  // namespace detail

template <typename A, typename... Args>
ActorRef Actor::spawn(Args&&... args) {
  static_assert(std::is_base_of_v<Actor, A>, "spawn<A>: A must derive from exocheck::Actor");
  return spawn_child([&] { return std::unique_ptr<Actor>(new A(std::forward<Args>(args)...)); });
}

}  // namespace exocheck
