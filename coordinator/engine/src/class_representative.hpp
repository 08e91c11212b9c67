#pragma once
// Which path of a class optimal DPOR counts (optimal_exploration.cpp), so that counting classes
// costs no memory per class. With one item out at a time optimal DPOR runs one execution per
// class; side by side (several items out, subtrees given away) a class may be explored twice, by
// a run whose sleep set lacked a choice taken meanwhile. Of the paths of a class, the one counted
// is the one no choice taken before its own, at any configuration along it, starts the rest of:
// exactly one of those explored (dependency.md, "Counting classes without keeping them").

#include <vector>

#include "configuration_tree.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

struct ClassVerdict {
  bool represents = false;
  /// Not known yet: whether this choice's own run, not back yet, ended in its delivery (it then
  /// explored nothing this path delivered before the same delivery, and the path counts).
  Taken* waits_on = nullptr;
};

/// Whether `trace`, which went through `path` (path[k]: the configuration after k steps; nullptr
/// above the explorer's root), is the path its class is counted by. `cut_off`: a failure in its
/// last step ended it with messages still enabled (race.hpp, cut_off()). `started_at`: the
/// configuration its item delivered its first entry from (nullptr: a run of its own).
ClassVerdict represents_its_class(const TraceView& trace, const std::vector<Configuration*>& path, const Names& names,
                                  bool cut_off, const Configuration* started_at);

}  // namespace exocheck::engine
