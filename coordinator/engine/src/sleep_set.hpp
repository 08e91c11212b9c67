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
  template <class Done, class ReceiverOf>
  SleepSet after(Key message, Key receiver, const Done& done, ReceiverOf receiver_of) const {
    SleepSet child = passed_through(receiver);
    for (Key sibling : done) {
      const Key to = receiver_of(sibling);
      if (sibling != message && !dependency::dependent(to, receiver) && !asleep(sibling)) {
        child.entries_.push_back({sibling, to});
      }
    }
    return child;
  }

  /// The set of a child reached by a step at `actor` that was not handed out from this
  /// configuration (a run's own continuation): `actor`'s messages wake.
  SleepSet passed_through(Key actor) const {
    SleepSet child;
    for (const Pending& p : entries_) {
      if (!dependency::dependent(p.receiver, actor)) child.entries_.push_back(p);
    }
    return child;
  }

  /// Puts `pending` to sleep here: a subtree's root starts with the set its giver computed.
  void fall_asleep(Pending pending) {
    if (!asleep(pending.message)) entries_.push_back(pending);
  }

  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }

 private:
  ShortList<Pending, 2> entries_;
};

}  // namespace exocheck::engine
