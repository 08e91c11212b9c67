#include "liveness_watch.hpp"

#include <algorithm>

namespace exocheck::detail {

void LivenessWatch::begin_round(std::uint32_t first_step, std::span<const std::string* const> enabled) {
  round_start_ = first_step;
  owed_.clear();
  for (const std::string* message : enabled) owed_.push_back(*message);
}

LivenessWatch::Heat& LivenessWatch::heat_of(const Monitor& monitor) {
  for (auto& heat : heats_) {
    if (heat.monitor == &monitor) return heat;
  }
  return heats_.emplace_back(Heat{&monitor});
}

std::uint32_t LivenessWatch::temperature(const Monitor& monitor) const {
  for (const auto& heat : heats_) {
    if (heat.monitor == &monitor) return heat.temperature;
  }
  return 0;
}

const Monitor* LivenessWatch::after_step(std::uint32_t step, const std::string& delivered,
                                         std::span<const std::string* const> enabled,
                                         std::span<Monitor* const> monitors) {
  if (bound_ == 0) return nullptr;
  for (const Monitor* monitor : monitors) {
    Heat& heat = heat_of(*monitor);
    if (monitor->hot_state().empty()) {
      heat.hot_since = 0;
      heat.temperature = 0;
    } else if (heat.hot_since == 0) {
      heat.hot_since = step;
    }
  }
  // The first round begins after the first step looked at (what was enabled before it is not
  // told): that step is in no round.
  if (round_start_ == 0) {
    begin_round(step + 1, enabled);
    return nullptr;
  }
  std::erase(owed_, delivered);
  std::erase_if(owed_, [&](const std::string& owed) {
    return std::none_of(enabled.begin(), enabled.end(), [&](const std::string* e) { return *e == owed; });
  });
  if (!owed_.empty()) return nullptr;
  const Monitor* past_bound = nullptr;
  for (auto& heat : heats_) {
    if (heat.hot_since == 0) continue;
    // A round counts when the monitor was hot throughout: hot before its first step.
    if (heat.hot_since < round_start_) ++heat.temperature;
    if (heat.temperature > bound_ && past_bound == nullptr) past_bound = heat.monitor;
  }
  begin_round(step + 1, enabled);
  return past_bound;
}

}  // namespace exocheck::detail
