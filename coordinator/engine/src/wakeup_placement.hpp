#pragma once
// Where a wakeup sequence goes in optimal DPOR's configuration tree (optimal_exploration.cpp):
// insert[E](v) with the sleep sets and the choices taken at E, and the labels of a delivery with its
// handler's choices made otherwise, each explored from where the delivery was.

#include "configuration_tree.hpp"
#include "names.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine {

class WakeupPlacement {
 public:
  WakeupPlacement(const Names& names, ConfigurationTree& tree) : names_(names), tree_(tree) {}

  /// insert[E](v) where the race's execution took `taken` (kNoKey: v comes down from a parent's):
  /// nothing when what sleeps at `at`, or a choice taken there before `taken`, starts v, or when
  /// v starts with an entry a guard held back there. A choice taken after `taken` that starts v
  /// would have had v put into its branch: v goes down into its configuration (pinned, so held),
  /// or is dropped for one given away, which needs none.
  void offer(Configuration& at, Key taken, WakeupSequence v);

  /// A choice of a delivery's handler made otherwise, from the configuration the delivery left:
  /// not offered as a sequence (what sleeps there, or a sibling independent of it, must not take
  /// it elsewhere), since the children of `at` that sleep the delivery's message sleep every label
  /// of it (dependency.md, "Choices").
  void add_alternative(Configuration& at, Key alternative, Key lane);

 private:
  /// v, whose initial at k is another label of a message delivered at `at`, below that label's
  /// branch: the choices taken after the message sleep it with every label of it.
  void offer_below_label(Configuration& at, Key taken, WakeupSequence v, std::size_t k);

  const Names& names_;
  ConfigurationTree& tree_;
};

}  // namespace exocheck::engine
