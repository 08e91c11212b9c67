#pragma once
// Optimal DPOR's subtrees handed over (optimal_exploration.cpp's split() and its taker's root):
// what a Subtree carries of a configuration's sleep set and wakeup tree, each way.

#include <string>
#include <vector>

#include "configuration_tree.hpp"
#include "exocheck/engine/subtree.hpp"
#include "names.hpp"
#include "sleep_set.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine {

/// The subtree whose root is reached by `first` from the configuration whose deliveries are
/// `prefix`, with `rest` below it and `sleep` asleep at its root.
Subtree subtree_below(const Names& names, std::vector<std::string> prefix, const WakeupEvent& first,
                      const WakeupTree& rest, const SleepSet& sleep);

/// The taker's root: `subtree`'s sleep set and wakeup tree, interned into `names`.
void take_root(const Subtree& subtree, Names& names, Configuration& root);

}  // namespace exocheck::engine
