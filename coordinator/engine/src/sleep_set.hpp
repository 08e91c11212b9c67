#pragma once
// Sleep sets (Godefroid), on top of any reduction: the messages whose exploration from a
// configuration is covered by a sibling already explored. This is the engine's half: the set a
// child configuration inherits. The hook's half (runtime_hook/src/sleep_set.hpp) never delivers a
// sleeping message and wakes the messages a step's actor receives; a run whose enabled messages
// all sleep ends sleep-blocked, a redundant path the explorer counts apart.
//
// A step wakes every sleeping message whose delivery is dependent with it (dependency.hpp: the
// same receiving actor), and leaves the others asleep.

#include <algorithm>
#include <string>
#include <vector>

#include "dependency.hpp"
#include "names.hpp"
#include "short_list.hpp"

namespace exocheck::engine {

/// A message pending at a configuration, with its receiver. The receiver belongs with the
/// configuration: a message id ("0#1") names the n-th send of an actor, and which actor that
/// send goes to depends on the sender's history, so it can differ between branches.
struct Pending {
  Key message = kNoKey;
  Key receiver = kNoKey;
  /// The monitors' lanes its delivery notified on where it ran, or every lane when it is not known
  /// not to notify (dependency.hpp).
  MonitorLanes notifies = MonitorLanes::none();
};

class SleepSet {
 public:
  bool asleep(Key message) const {
    return std::any_of(entries_.begin(), entries_.end(), [&](const Pending& p) { return p.message == message; });
  }

  /// The set of the child reached by delivering `message` to `receiver` from a configuration with
  /// this set, from which the messages `done` were handed out before it (receiver_of(m): whom m
  /// goes to there). What this set holds stays asleep unless `receiver` receives it, and the
  /// siblings explored before fall asleep unless `receiver` receives them.
  /// `receiver_of(m)` is a Pending for m (its receiver there, and whether it notifies); `notifies`
  /// whether the delivery of `message` does. One handed out before it ran may be taken not to: if
  /// its run shows it did, the hook wakes what notifies after it (RunRequest.sleep_notifying) and
  /// the explorer passes its child's set through it (tree_exploration.cpp).
  template <class Done, class ReceiverOf>
  SleepSet after(Key message, Key receiver, MonitorLanes notifies, const Done& done, ReceiverOf receiver_of) const {
    SleepSet child = passed_through(receiver, notifies);
    for (Key sibling : done) {
      const Pending to = receiver_of(sibling);
      if (sibling != message && !dependency::dependent(to.receiver, receiver, to.notifies, notifies) &&
          !asleep(sibling)) {
        child.entries_.push_back({sibling, to.receiver, to.notifies});
      }
    }
    return child;
  }

  /// The set of a child reached by a step at `actor` (`notified`: the monitors' lanes it notified
  /// on) that was not handed out from this configuration (a run's own continuation): `actor`'s
  /// messages wake, and those that notify on a lane of `notified`.
  SleepSet passed_through(Key actor, MonitorLanes notified) const {
    SleepSet child;
    for (const Pending& p : entries_) {
      if (!dependency::dependent(p.receiver, actor, p.notifies, notified)) child.entries_.push_back(p);
    }
    return child;
  }

  /// Wakes those that notify on a lane of `notified`: a step that was taken not to notify did
  /// (optimal_exploration.cpp).
  void wake_notifying(MonitorLanes notified) {
    entries_.erase(
        std::remove_if(entries_.begin(), entries_.end(), [&](const Pending& p) { return p.notifies.meets(notified); }),
        entries_.end());
  }

  /// Puts `pending` to sleep here: a subtree's root starts with the set its giver computed.
  void fall_asleep(Pending pending) {
    if (!asleep(pending.message)) entries_.push_back(pending);
  }

  /// The sleeping messages by name into `messages`, those that notify into `notifying` too, and
  /// their monitors' lanes into `lanes` (WorkItem::sleep, sleep_notifying, sleep_notifying_lanes).
  void name_into(const Names& names, std::vector<std::string>& messages, std::vector<std::string>& notifying,
                 std::vector<std::vector<std::string>>& lanes) const;

  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }

 private:
  ShortList<Pending, 2> entries_;
};

}  // namespace exocheck::engine
