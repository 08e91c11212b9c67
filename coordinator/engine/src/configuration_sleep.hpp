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

/// An item's entry k (`entries`: its configurations by depth), handed out as `taken` says (its
/// lanes a race's guess), notified on the monitors' `lanes`. When some of them were not guessed,
/// `taken` says so from now on, and every sleeper that notifies on them wakes at it, in its
/// configuration and those below it, as the hook's run woke them (dependency.md, "Specification
/// monitors"); left asleep, a later item from there would sleep a delivery that the monitor orders
/// after this one. Returns the lanes that woke sleepers: `lanes`, or none.
MonitorLanes notified(const std::vector<Configuration*>& entries, std::size_t k, Taken& taken, MonitorLanes lanes);

/// Whether the first branch of `from`'s wakeup tree may be given away as a subtree: its event is
/// firm (a tentative one may be held back, and the subtree's root would not exist), `from` is
/// unpinned and settled, and the subtree's sleep set, of the finished choices only, is the one the
/// algorithm gives it. A choice under way that is independent of the branch would sleep there in
/// the algorithm; the taker, without it, explores again what that choice's subtree explores: over
/// two agents registry K=5 took 840 executions for 720 classes (a root branch's classes twice)
/// and shortpath 5 396,664 for 198,560. Such a branch stays with its giver.
bool may_give_away(const Names& names, const Configuration& from, PathFacts& facts);

}  // namespace exocheck::engine
