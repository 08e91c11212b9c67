#include "exocheck/monitor.hpp"

#include <map>
#include <mutex>
#include <stdexcept>

#include "exocheck/check.hpp"
#include "exocheck/detail/runtime.hpp"
#include "failure_record.hpp"
#include "monitors.hpp"

namespace exocheck {

bool Monitor::handle(const std::type_info& type, const void* event) {
  for (const auto& handler : handlers_) {
    if (*handler.type != type) continue;
    handler.run(event);
    return true;
  }
  return false;
}

void Monitor::hot(std::string state) {
  // A hot state needs a name: an empty one would read as cold.
  hot_state_ = state.empty() ? "hot" : std::move(state);
}

namespace detail {
namespace {

struct MonitorRegistry {
  std::map<std::type_index, std::unique_ptr<Monitor>> by_type;
  std::map<std::string, std::unique_ptr<Monitor>> by_name;
  std::vector<Monitor*> in_order;
  bool closed = false;
  // A free run's handlers run on a thread pool: one notification at a time, as a step's would be.
  // Recursive: a monitor's handler may notify another monitor.
  std::recursive_mutex notifying;
};

// Never destroyed: a monitor may be notified from an actor's destructor at the process's exit.
MonitorRegistry& registry() {
  static auto* registry = new MonitorRegistry;
  return *registry;
}

}  // namespace

Monitor& register_monitor(std::type_index type, std::unique_ptr<Monitor> monitor) {
  MonitorRegistry& all = registry();
  if (all.closed) throw std::logic_error("monitor " + monitor->name() + " was added after System::run() began");
  auto [it, fresh] = all.by_type.emplace(type, std::move(monitor));
  if (!fresh) throw std::logic_error("monitor " + it->second->name() + " was added twice");
  all.in_order.push_back(it->second.get());
  return *it->second;
}

Monitor& register_named_monitor(std::unique_ptr<Monitor> monitor) {
  MonitorRegistry& all = registry();
  auto [it, fresh] = all.by_name.emplace(monitor->name(), std::move(monitor));
  if (fresh) all.in_order.push_back(it->second.get());
  return *it->second;
}

Monitor& registered_monitor(std::type_index type, const char* type_name) {
  MonitorRegistry& all = registry();
  const auto it = all.by_type.find(type);
  if (it == all.by_type.end()) {
    throw std::logic_error(std::string("exocheck::notify<") + demangle(type_name) +
                           ">: no such monitor was added (System::add_monitor)");
  }
  return *it->second;
}

void deliver_notification(Monitor& monitor, const std::type_info& type, const void* event, const std::string& summary) {
  std::lock_guard lock(registry().notifying);
  if (Runtime* runtime = active_runtime()) runtime->notified(monitor, summary);
  try {
    if (!monitor.handle(type, event)) {
      throw std::logic_error("monitor " + monitor.name() + " has no handler for " + summary);
    }
  } catch (AssertionFailure& failure) {
    // The step fails for the monitor: its name says which specification was violated.
    failure.what = "monitor " + monitor.name() + ": " + failure.what;
    failure_record().assertion = failure.what;
    throw;
  }
}

const std::vector<Monitor*>& registered_monitors() {
  return registry().in_order;
}

void close_monitor_registration() {
  registry().closed = true;
}

const Monitor* first_hot_monitor() {
  for (const Monitor* monitor : registry().in_order) {
    if (!monitor->hot_state().empty()) return monitor;
  }
  return nullptr;
}

}  // namespace detail
}  // namespace exocheck
