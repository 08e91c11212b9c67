// The CAF adapter's side of exocheck/caf_monitor.hpp: a CAF program's specification monitors run
// in the program; the adapter keeps a stand-in for each in the hook's registry, so that a
// notification is part of the step that made it (the monitors' lane) and the stand-in's
// temperature, the program monitor's, is what liveness judges (controlled_liveness.cpp). The
// program finds these functions with dlsym: they are its only entry into the adapter.

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "caf_bridge.hpp"
#include "caf_recording.hpp"
#include "monitors.hpp"

namespace exocheck::caf_adapter {
namespace {

/// A program monitor's stand-in: its name and temperature.
class MonitorStandIn : public Monitor {
 public:
  explicit MonitorStandIn(std::string name) : Monitor(std::move(name)) {}
  void take_temperature(const char* hot_state) {
    if (hot_state == nullptr || *hot_state == '\0') {
      cold();
    } else {
      hot(hot_state);
    }
  }
};

/// The stand-in of the program's monitor `name`, made at its first mention. Looked up without a
/// copy of the name: a notification is on a run's hot path.
MonitorStandIn& stand_in(const char* name) {
  static std::map<std::string, MonitorStandIn*, std::less<>> known;
  const auto it = known.find(std::string_view(name));
  if (it != known.end()) return *it->second;
  auto& made = static_cast<MonitorStandIn&>(detail::register_named_monitor(std::make_unique<MonitorStandIn>(name)));
  known.emplace(name, &made);
  return made;
}

}  // namespace
}  // namespace exocheck::caf_adapter

extern "C" __attribute__((visibility("default"))) void exocheck_caf_monitor_added(const char* monitor,
                                                                                  const char* hot_state) {
  exocheck::caf_adapter::stand_in(monitor).take_temperature(hot_state);
}

extern "C" __attribute__((visibility("default"))) void exocheck_caf_notifying(const char* monitor, const char* event) {
  auto& standing = exocheck::caf_adapter::stand_in(monitor);
  // Under an agent only (recording a free run, the adapter is loaded too: nothing to record).
  if (auto* bridge = exocheck::caf_adapter::CafBridge::instance()) bridge->monitor_notified(standing, event);
}

extern "C" __attribute__((visibility("default"))) void exocheck_caf_temperature(const char* monitor,
                                                                                const char* hot_state) {
  exocheck::caf_adapter::stand_in(monitor).take_temperature(hot_state);
}

extern "C" __attribute__((visibility("default"))) void exocheck_caf_monitor_failed(const char* monitor,
                                                                                   const char* what) {
  const std::string detail = std::string("monitor ") + monitor + ": " + what;
  // Under an agent the step fails and the run ends here; recording a free run, the step in
  // progress failed, and the program aborts as its assert() would.
  if (auto* bridge = exocheck::caf_adapter::CafBridge::instance()) bridge->assertion_failed(detail);
  if (auto* recording = exocheck::caf_adapter::CafRecording::instance()) recording->assertion_failed(detail);
}
