#include "wakeup_budget.hpp"

namespace exocheck::engine {
void WakeupBudget::before_analysis(const ConfigurationTree& tree) {
  ++runs_since_count_;
  // What the explorers sharing the budget counted, this one's part aside.
  const std::uint64_t others = shared_ ? shared_->load(std::memory_order_relaxed) - published_ : 0;
  // Sharing, not before this explorer was offered events: with the others at the budget, a count
  // of empty trees would mark none of them, and cutting would wait for the next count.
  const bool offered = shared_ == nullptr || estimate_ > 0;
  const bool due = cutting_ ? runs_since_count_ >= kRunsBetweenCountsWhileCutting
                            : offered && estimate_ + others >= budget_ && runs_since_count_ >= kRunsBetweenCounts;
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
  if (shared_) {
    shared_->fetch_add(events - published_, std::memory_order_relaxed);  // modulo 2^64: a fall too
    published_ = events;
  }
  const std::uint64_t total = events + others;
  cutting_ = total >= (cutting_ ? budget_ - budget_ / 10 : budget_);
  everywhere_ = 2 * in_large <= events && 2 * events >= total;
}

bool WakeupBudget::cut(WakeupSequence& v, const Configuration* at) const {
  if (!cuts_at(at) || v.size() < 2 || v.back().rest) return false;
  v.resize(1);
  v.push_back(WakeupEvent::rest_of_sequence());
  return true;
}

}  // namespace exocheck::engine
