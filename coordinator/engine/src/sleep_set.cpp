#include "sleep_set.hpp"

namespace exocheck::engine {

void SleepSet::name_into(const Names& names, std::vector<std::string>& messages, std::vector<std::string>& notifying,
                         std::vector<std::vector<std::string>>& lanes) const {
  messages.reserve(messages.size() + entries_.size());
  for (const Pending& p : entries_) {
    messages.push_back(names.name(p.message));
    if (!p.notifies) continue;
    notifying.push_back(messages.back());
    auto& named = lanes.emplace_back();
    // Past kShared the lanes share a bit: such a sleeper is named as on any lane.
    if (p.notifies == MonitorLanes::any() || p.notifies.on(MonitorLanes::kShared)) continue;
    for (std::uint32_t lane = 0; lane < names.monitor_lanes().size() && lane < MonitorLanes::kShared; ++lane) {
      // The trace view's lanes' names begin with "!" (trace_view.cpp); the hook's do not.
      if (p.notifies.on(lane)) named.push_back(names.name(names.monitor_lanes()[lane]).substr(1));
    }
  }
}

}  // namespace exocheck::engine
