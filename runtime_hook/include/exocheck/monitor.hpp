#pragma once
// Specification monitors: global observers of the whole program, as Coyote's and P's are. An actor
// notifies a monitor from its handler; the monitor's handler runs at once, in the notifying step
// (no message, no scheduling point), and may check invariants across actors with
// exocheck::check, which then fails the notifying step, the monitor named. A monitor may also
// be hot (something is owed: "a request is unanswered") or cold: a run that ends with a monitor hot
// is a liveness bug, and so is one hot throughout more than --liveness-bound fair rounds.
//
//   struct LeaderElected { int term; std::string who; };
//   class OneLeaderPerTerm : public exocheck::Monitor {
//    public:
//     OneLeaderPerTerm() : Monitor("OneLeaderPerTerm") {
//       on<LeaderElected>([this](const LeaderElected& e) {
//         auto [it, fresh] = leaders_.emplace(e.term, e.who);
//         exocheck::check(fresh || it->second == e.who, "two leaders in one term");
//       });
//     }
//    private:
//     std::map<int, std::string> leaders_;
//   };
//   ... system.add_monitor<OneLeaderPerTerm>(); ...
//   ... in a handler: exocheck::notify<OneLeaderPerTerm>(LeaderElected{term, id});
//
// A monitor only observes: nothing of its state flows back to the actors, so a notification
// changes what happens next only through a failed check or the monitor's temperature. The
// exploration knows that two steps notifying monitors do not commute (dependency.md, "Specification monitors").

#include <functional>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "exocheck/actor.hpp"
#include "exocheck/message.hpp"

namespace exocheck {
class Monitor {
 public:
  /// `name` is how traces and bug reports name the monitor.
  explicit Monitor(std::string name) : name_(std::move(name)) {}
  virtual ~Monitor() = default;
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  const std::string& name() const { return name_; }
  /// The state the monitor is hot in, or empty when it is cold.
  const std::string& hot_state() const { return hot_state_; }

  /// Runs the handler for `type` with `event`; false when the monitor has none for it.
  bool handle(const std::type_info& type, const void* event);

 protected:
  /// Handles notifications of type E (deduced from the handler's parameter, or given explicitly).
  template <typename E, typename F>
  void on(F&& handler) {
    handlers_.push_back({&typeid(E), [h = std::forward<F>(handler)](const void* e) { h(*static_cast<const E*>(e)); }});
  }
  template <typename F>
  void on(F&& handler) {
    on<typename detail::handler_traits<F>::argument>(std::forward<F>(handler));
  }
  /// Liveness: from now on something is owed, `state` says what ("waiting for the ack").
  void hot(std::string state);
  /// Nothing is owed any more.
  void cold() { hot_state_.clear(); }

 private:
  struct Handler {
    const std::type_info* type;
    std::function<void(const void*)> run;
  };
  std::string name_;
  std::string hot_state_;
  std::vector<Handler> handlers_;
};

namespace detail {

/// Registers `monitor` for the process (System::add_monitor). Throws std::logic_error for a second
/// monitor of the same type, or once the run has begun.
Monitor& register_monitor(std::type_index type, std::unique_ptr<Monitor> monitor);
/// The monitor registered for `type`; throws std::logic_error when there is none.
Monitor& registered_monitor(std::type_index type, const char* type_name);
/// Tells the runtime of the step in progress, then runs the monitor's handler in it: a failed
/// check there fails the step, its text prefixed with the monitor's name.
void deliver_notification(Monitor& monitor, const std::type_info& type, const void* event, const std::string& summary);

}  // namespace detail

/// Notifies the monitor of type M, registered with System::add_monitor<M>(), of `event`: its
/// handler for E runs now, in the step of the handler that notifies.
template <typename M, typename E>
void notify(const E& event) {
  static_assert(std::is_base_of_v<Monitor, M>, "notify<M>: M must derive from exocheck::Monitor");
  Monitor& monitor = detail::registered_monitor(typeid(M), typeid(M).name());
  detail::deliver_notification(monitor, typeid(E), &event, summary_of(event));
}

}  // namespace exocheck
