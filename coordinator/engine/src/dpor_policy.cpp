#include "backtrack_policy.hpp"

namespace exocheck::engine {
namespace {

/// Persistent-set DPOR adapted to actors: TransDPOR paper Fig. 2 without the underlined lines.
/// "Add any" adds one element of E (the first, by increasing j), none when one is already in the
/// backtrack set; an empty E adds every message enabled at pre(S, i) (line 7).
class DporPolicy final : public RaceDrivenPolicy {
 public:
  void on_race(Node& pre, const Race& race) const override {
    if (race.dpor_set.empty()) {
      for (Key m : pre.enabled) {
        if (!pre.asleep(m)) pre.add_backtrack(m);
      }
      return;
    }
    for (Key m : race.dpor_set) {
      if (pre.in_backtrack(m)) return;
    }
    for (std::size_t k = 0; k < race.dpor_set.size(); ++k) {
      if (!pre.sleep.asleep(race.dpor_messages[k])) {
        pre.add_backtrack(race.dpor_set[k], race.dpor_messages[k]);
        return;
      }
    }
    // Every element asleep: the sleeping sibling covers the reversal when each event has one lane.
    // One that also notified a monitor may need a message sent after the sleeper's lane-mate
    // first (dependency.md, "Specification monitors"): line 7 then, every message awake here.
    if (!race.monitors) return;
    for (Key m : pre.enabled) {
      if (!pre.asleep(m)) pre.add_backtrack(m);
    }
  }
};

}  // namespace

std::unique_ptr<BacktrackPolicy> make_dpor_policy() {
  return std::make_unique<DporPolicy>();
}

}  // namespace exocheck::engine
