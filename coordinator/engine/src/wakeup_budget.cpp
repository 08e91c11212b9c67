#include "wakeup_budget.hpp"

namespace exocheck::engine {
void WakeupBudget::before_analysis(const ConfigurationTree& tree) {
  ++runs_since_count_;
  const bool due = cutting_ ? runs_since_count_ >= kRunsBetweenCountsWhileCutting
                            : estimate_ >= budget_ && runs_since_count_ >= kRunsBetweenCounts;
  if (!due) return;
  runs_since_count_ = 0;
  ++count_;
  std::uint64_t events = 0;
  std::uint64_t in_large = 0;
  for (const auto& [place, configuration] : tree.open()) {
    const std::uint64_t held = configuration->wakeup.events();
    events += held;
    if (held >= budget_ / kLargeTreeShare) {
      configuration->wakeup_full = count_;
      in_large += held;
    }
  }
  estimate_ = events;
  cutting_ = events >= (cutting_ ? budget_ - budget_ / 10 : budget_);
  everywhere_ = 2 * in_large <= events;
}

bool WakeupBudget::cut(WakeupSequence& v, const Configuration* at) const {
  if (!cuts_at(at) || v.size() < 2 || v.back().rest) return false;
  v.resize(1);
  v.push_back(WakeupEvent::rest_of_sequence());
  return true;
}

}  // namespace exocheck::engine
