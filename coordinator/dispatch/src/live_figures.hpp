#pragma once
// The latest figures of a job's leases not yet done, and their sum, kept as they change. The job's
// progress (a watcher's, four times a second) and its bound on paths (every report) add them to
// the ledger's; with a thousand leases out, a walk of them all under the dispatcher's lock took
// milliseconds (tests/bench/results-2026-11-30.md).

#include <cstdint>
#include <unordered_map>

#include "exocheck/engine/stats.hpp"

namespace exocheck::coordinator {

class LiveFigures {
 public:
  /// `figures` are lease `lease`'s now, in place of those it had.
  void set(std::uint64_t lease, const engine::Stats& figures) {
    auto& held = by_lease_[lease];
    sum_ -= held;
    sum_ += figures;
    held = figures;
  }
  /// Lease `lease` is done or gone: its figures are no longer live.
  void erase(std::uint64_t lease) {
    const auto found = by_lease_.find(lease);
    if (found == by_lease_.end()) return;
    sum_ -= found->second;
    by_lease_.erase(found);
  }
  const engine::Stats& sum() const { return sum_; }

 private:
  std::unordered_map<std::uint64_t, engine::Stats> by_lease_;
  engine::Stats sum_;  ///< modulo 2^64 as it goes, exact as a sum of what by_lease_ holds
};

}  // namespace exocheck::coordinator
