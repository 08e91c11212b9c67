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
// exploration takes two steps that notify one monitor not to commute, and two that notify
// different monitors to commute (dependency.md, "Specification monitors"). A monitor may declare
// finer: `in_part<E>("name")` says that E's handler reads and writes only that part of the
// monitor's state and temperature, so that notifications of two different parts commute and the
// exploration does not try both orders of steps that notify only those. The declaration is a
// promise the exploration trusts: a part that reads another's state may hide a violation.
//
//   // The door and the window are watched apart; arming reads both (subjects/monitor-order).
//   ShutWhenArmed() : Monitor("ShutWhenArmed") {
//     on([this](const Opened&) { door_open_ = true; });  ... WindowOpened, WindowShut alike ...
//     on([this](const Armed&) { exocheck::check(!door_open_ && !window_open_, "armed while open"); });
//     in_part<Opened>("door"); in_part<Shut>("door");
//     in_part<WindowOpened>("window"); in_part<WindowShut>("window");   // Armed: the whole monitor
//   }

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
  /// The state the monitor is hot in (the whole monitor's, or else its first hot part's), or empty
  /// when it is cold.
  const std::string& hot_state() const;

  /// Runs the handler for `type` with `event`; false when the monitor has none for it.
  bool handle(const std::type_info& type, const void* event);
  /// The lanes a notification of `type` is on (Notification.lanes): the monitor's name, and its
  /// parts' "name/part" for a notification of the whole monitor; "name/part" alone for one of a
  /// part. nullptr: a notification of the whole monitor. Fixed at the first call.
  const std::vector<std::string>& lanes_of(const std::type_info* type) const;

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
  /// Notifications of E read and write only the part `part` of the monitor's state (see above).
  /// Throws std::logic_error once the monitor was notified.
  template <typename E>
  void in_part(std::string part) {
    declare_part(typeid(E), std::move(part));
  }
  /// Liveness: from now on something is owed, `state` says what ("waiting for the ack"). In a
  /// part's handler the part is hot; the monitor is hot while it or any part is.
  void hot(std::string state);
  /// Nothing is owed any more: in a part's handler by the part, elsewhere by the whole monitor.
  void cold();

 private:
  struct Handler {
    const std::type_info* type;
    std::function<void(const void*)> run;
  };
  struct Part {  ///< a notification type's
    const std::type_info* type;
    std::size_t heat;                ///< its part's, in heats_
    std::vector<std::string> lanes;  ///< its one lane, "name/part"
  };
  struct Heat {  ///< a part's temperature
    std::string part;
    std::string hot_state;
  };
  void declare_part(const std::type_info& type, std::string part);
  std::string name_;
  std::string hot_state_;
  std::vector<Handler> handlers_;
  std::vector<Part> parts_;                       ///< by notification type, as declared
  std::vector<Heat> heats_;                       ///< by part, as first declared
  mutable std::vector<std::string> whole_lanes_;  ///< empty until lanes_of() first runs
  Heat* handling_ = nullptr;                      ///< the part whose handler runs now, if any
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
