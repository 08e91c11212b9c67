#pragma once
// Specification monitors for CAF programs (C++17, header only, nothing to link): the monitors of
// exocheck/monitor.hpp for a program written with the C++ Actor Framework, which links CAF only.
// A CAF user adds a monitor class, registers it in caf_main and adds one line per notification to
// the handlers; nothing else changes.
//
//   struct door_opened {};  struct alarm_armed {};
//   class shut_when_armed : public exocheck_caf::monitor {
//    public:
//     shut_when_armed() : monitor("ShutWhenArmed") {
//       on<door_opened>([this](const door_opened&) { open_ = true; });
//       on<alarm_armed>([this](const alarm_armed&) { check(!open_, "the alarm was armed while the door was open"); });
//     }
//    private:
//     bool open_ = false;
//   };
//   void caf_main(caf::actor_system& sys) { exocheck_caf::add_monitor<shut_when_armed>(); ... }
//   ... in a handler: exocheck_caf::notify<shut_when_armed>(alarm_armed{}, "alarm_armed");
//
// Started by hand the monitors run as written: a failed check aborts as a failed assert() does;
// hot_monitors() says which are hot, for the program to print at its end. Under exocheck the CAF
// adapter (preloaded) defines the four functions of `adapter` below, which the program looks up
// when it first adds a monitor (glibc's dlsym: nothing to link). Each notification is then part
// of the step that made it, ordered with the other notifying steps (the monitors' lane,
// dependency.md "Specification monitors"); a failed check is the step's assertion failure; a
// monitor hot where the run ends, or past --liveness-bound fair rounds, is a liveness bug.

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

namespace exocheck_caf {
namespace detail {

/// The CAF adapter's side: each null when the program runs without exocheck.
struct adapter {
  using told = void (*)(const char* monitor, const char* text);
  told monitor_added = nullptr;  ///< (monitor, its hot state or "")
  told notifying = nullptr;      ///< (monitor, the event's summary), before its handler runs
  told temperature = nullptr;    ///< (monitor, its hot state or ""), after
  told failed = nullptr;         ///< (monitor, what its check says): the step fails, the run ends

  static const adapter& of_process() {
    static const adapter found{lookup("exocheck_caf_monitor_added"), lookup("exocheck_caf_notifying"),
                               lookup("exocheck_caf_temperature"), lookup("exocheck_caf_monitor_failed")};
    return found;
  }

 private:
  static told lookup(const char* name) { return reinterpret_cast<told>(::dlsym(RTLD_DEFAULT, name)); }
};

/// A CAF program runs its actors on several threads when no exocheck controls it: one notification
/// at a time, as a step's would be. Recursive: a monitor's handler may notify another.
inline std::recursive_mutex& notifying() {
  static auto* one_at_a_time = new std::recursive_mutex;
  return *one_at_a_time;
}

}  // namespace detail

class monitor {
 public:
  /// `name` is how traces and bug reports name the monitor.
  explicit monitor(std::string name) : name_(std::move(name)) {}
  virtual ~monitor() = default;
  monitor(const monitor&) = delete;
  monitor& operator=(const monitor&) = delete;

  const std::string& name() const { return name_; }
  /// The state the monitor is hot in; empty when it is cold.
  const std::string& hot_state() const { return hot_state_; }

  /// Runs the handler for E with `event`, told as `summary`.
  template <typename E>
  void handle(const E& event, const std::string& summary) {
    const auto& adapter = detail::adapter::of_process();
    if (adapter.notifying != nullptr) adapter.notifying(name_.c_str(), summary.c_str());
    const auto handler = handlers_.find(std::type_index(typeid(E)));
    if (handler == handlers_.end()) fail("no handler for " + summary);
    handler->second(&event);
    if (adapter.temperature != nullptr) adapter.temperature(name_.c_str(), hot_state_.c_str());
  }

 protected:
  template <typename E, typename F>
  void on(F handler) {
    handlers_[std::type_index(typeid(E))] = [handler = std::move(handler)](const void* e) {
      handler(*static_cast<const E*>(e));
    };
  }
  /// Something is owed ("waiting for an answer to request 3"): a run must not end so.
  void hot(std::string state) { hot_state_ = state.empty() ? "hot" : std::move(state); }
  /// Nothing is owed any more.
  void cold() { hot_state_.clear(); }
  /// The monitor's invariant: false fails the notifying step.
  void check(bool holds, const std::string& what) {
    if (!holds) fail(what);
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    // Under exocheck the step's assertion failure (the run ends there); by hand, as assert().
    const auto& adapter = detail::adapter::of_process();
    if (adapter.failed != nullptr) adapter.failed(name_.c_str(), what.c_str());
    std::fprintf(stderr, "monitor %s: %s\n", name_.c_str(), what.c_str());
    std::abort();
  }

  std::string name_;
  std::string hot_state_;
  std::map<std::type_index, std::function<void(const void*)>> handlers_;
};

namespace detail {

/// The program's monitors by type. Never destroyed: actors may notify while the process exits.
inline std::map<std::type_index, monitor*>& monitors() {
  static auto* all = new std::map<std::type_index, monitor*>;
  return *all;
}
}  // namespace detail

/// Registers M (made from `args`) before the actors that notify it run, in caf_main.
template <typename M, typename... Args>
M& add_monitor(Args&&... args) {
  auto* made = new M(std::forward<Args>(args)...);
  detail::monitors()[std::type_index(typeid(M))] = made;
  const auto& adapter = detail::adapter::of_process();
  if (adapter.monitor_added != nullptr) adapter.monitor_added(made->name().c_str(), made->hot_state().c_str());
  return *made;
}

/// Tells monitor M of `event` (`summary` is how the trace shows it), in the handler's own step.
template <typename M, typename E>
void notify(const E& event, const std::string& summary) {
  std::lock_guard<std::recursive_mutex> lock(detail::notifying());
  const auto it = detail::monitors().find(std::type_index(typeid(M)));
  if (it == detail::monitors().end()) {
    std::fprintf(stderr, "exocheck_caf::notify: monitor %s was never added (add_monitor)\n", typeid(M).name());
    std::abort();
  }
  it->second->handle(event, summary);
}

/// Each monitor hot now, as "NAME is hot in state STATE"; for a program to print at its end.
inline std::vector<std::string> hot_monitors() {
  std::vector<std::string> hot;
  for (const auto& entry : detail::monitors()) {
    if (!entry.second->hot_state().empty()) {
      hot.push_back(entry.second->name() + " is hot in state " + entry.second->hot_state());
    }
  }
  return hot;
}

}  // namespace exocheck_caf
