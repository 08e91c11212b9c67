#pragma once
// What a reduction adds to backtrack sets: the one axis in which exhaustive exploration, DPOR
// and TransDPOR differ. One implementation per file.

#include <memory>

#include "exocheck/engine/options.hpp"
#include "node.hpp"
#include "race.hpp"

namespace exocheck::engine {

class BacktrackPolicy {
 public:
  virtual ~BacktrackPolicy() = default;
  /// A configuration reached for the first time, where the run delivered `chosen`.
  virtual void initialize(Node& node, Key chosen) const = 0;
  /// False when races need not be analysed at all.
  virtual bool analyses_races() const = 0;
  /// Fig. 2 lines 4-7 for one race found with the step taken at `pre` = pre(S, i).
  virtual void on_race(Node& pre, const Race& race) const = 0;
};

/// The DPOR family: a new configuration starts with only the message the run chose (Fig. 2,
/// lines 10-11); races add the rest.
class RaceDrivenPolicy : public BacktrackPolicy {
 public:
  void initialize(Node& node, Key chosen) const final {
    node.add_backtrack(chosen);
    node.done.push_back(chosen);
  }
  bool analyses_races() const final { return true; }
};

std::unique_ptr<BacktrackPolicy> make_exhaustive_policy();
std::unique_ptr<BacktrackPolicy> make_dpor_policy();
std::unique_ptr<BacktrackPolicy> make_transdpor_policy();
std::unique_ptr<BacktrackPolicy> make_policy(Reduction reduction);

}  // namespace exocheck::engine
