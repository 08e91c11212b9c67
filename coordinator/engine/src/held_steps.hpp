#pragma once
// The steps an optimal DPOR explorer holds from earlier runs (optimal_exploration.cpp): step 0 and
// those above its root from its first whole run, and each configuration's own step once a run came
// back through it. A later run from a configuration leaves out the steps of its path
// (WorkItem::steps_held, RunRequest.steps_held) and takes them from here, as TreeExploration takes
// its prefix from its nodes: the same schedule gives the same steps, and decoding them again was
// most of what optimal DPOR cost beside TransDPOR per run.

#include <cstddef>
#include <vector>

#include "configuration_tree.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

class HeldSteps {
 public:
  /// Steps 0 .. c's depth into `prefix`, for TraceView::assign; false when one of them has not
  /// come back yet (the configurations an item out made; before the first whole run).
  bool prefix_of(const Configuration& c, std::size_t root_depth, std::vector<const ViewStep*>& prefix) const;

  /// After a whole run: step 0 and the steps that reach the root, if not held yet.
  void hold_above_root(const TraceView& trace, std::size_t root_depth);

  /// After a run that followed its item: the step of each configuration of `path` (indexed by
  /// depth) below the root that has none yet.
  static void hold_path(const TraceView& trace, const std::vector<Configuration*>& path, std::size_t root_depth);

 private:
  std::vector<ViewStep> above_root_;  ///< steps 0 .. the root's depth
};

}  // namespace exocheck::engine
