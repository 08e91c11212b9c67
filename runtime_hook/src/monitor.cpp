#include "exocheck/monitor.hpp"

#include <algorithm>
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
    const auto part = std::find_if(parts_.begin(), parts_.end(), [&](const Part& p) { return *p.type == type; });
    // Restored on the way out, a throw's too: a handler may notify its own monitor again.
    struct Handling {
      Heat*& now;
      Heat* outer;
      ~Handling() { now = outer; }
    } handling{handling_, handling_};
    handling_ = part == parts_.end() ? nullptr : &heats_[part->heat];
    handler.run(event);
    return true;
  }
  return false;
}

const std::string& Monitor::hot_state() const {
  if (!hot_state_.empty()) return hot_state_;
  for (const Heat& heat : heats_) {
    if (!heat.hot_state.empty()) return heat.hot_state;
  }
  return hot_state_;
}

void Monitor::hot(std::string state) {
  // A hot state needs a name: an empty one would read as cold.
  (handling_ != nullptr ? handling_->hot_state : hot_state_) = state.empty() ? "hot" : std::move(state);
}

void Monitor::cold() {
  if (handling_ != nullptr) {
    handling_->hot_state.clear();
    return;
  }
  hot_state_.clear();
  for (Heat& heat : heats_) heat.hot_state.clear();
}

void Monitor::declare_part(const std::type_info& type, std::string part) {
  if (!whole_lanes_.empty()) throw std::logic_error("monitor " + name_ + ": in_part after its first notification");
  const auto known = std::find_if(parts_.begin(), parts_.end(), [&](const Part& p) { return *p.type == type; });
  if (known != parts_.end()) throw std::logic_error("monitor " + name_ + ": a notification type in two parts");
  auto heat = std::find_if(heats_.begin(), heats_.end(), [&](const Heat& h) { return h.part == part; });
  if (heat == heats_.end()) heat = heats_.insert(heats_.end(), Heat{part, {}});
  parts_.push_back({&type, static_cast<std::size_t>(heat - heats_.begin()), {name_ + "/" + part}});
}

const std::vector<std::string>& Monitor::lanes_of(const std::type_info* type) const {
  if (whole_lanes_.empty()) {
    // The whole monitor's notifications are on every part's lane: they commute with none.
    whole_lanes_.push_back(name_);
    for (const Part& part : parts_) {
      const std::string& lane = part.lanes.front();
      if (std::find(whole_lanes_.begin(), whole_lanes_.end(), lane) == whole_lanes_.end()) whole_lanes_.push_back(lane);
    }
  }
  if (type == nullptr) return whole_lanes_;
  for (const Part& part : parts_) {
    if (*part.type == *type) return part.lanes;
  }
  return whole_lanes_;
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
  if (Runtime* runtime = active_runtime()) runtime->notified(monitor, monitor.lanes_of(&type), summary);
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
