#pragma once
// The sleep sets of optimal DPOR's configurations (optimal_exploration.cpp): what sleeps below a
// choice taken at a configuration, from the choices taken there before it.

#include <vector>

#include "configuration_tree.hpp"
#include "names.hpp"
#include "sleep_set.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine {

/// The sure choices taken at `from` before `label`'s message was first delivered there: a sleep
/// set holds messages, each asleep with every label of it, so the siblings taken between two
/// labels of one message do not sleep below the second (dependency.md, "Choices"). A choice that
/// cut its run off sleeps nowhere (dependency.md, "A run a failure cuts off").
std::vector<Taken> taken_before(const Names& names, const Configuration& from, Key label);

/// ODPOR's Sleep' = {q ∈ sleep(E) | p ◊ q}, sleep(E) holding the choices taken before p (only
/// the finished ones for a subtree given away).
SleepSet sleep_after(const Names& names, const Configuration& from, const WakeupEvent& p, bool finished_only = false);

}  // namespace exocheck::engine
