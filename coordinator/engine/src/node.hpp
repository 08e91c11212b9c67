#pragma once
// One configuration of the exploration tree with its DPOR bookkeeping (TransDPOR Fig. 2:
// backtrack, done, freeze) and its sleep set (sleep_set.hpp).

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "names.hpp"
#include "short_list.hpp"
#include "sleep_set.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

struct Node {
  Node* parent = nullptr;
  Key via = kNoKey;  ///< message delivered to reach this configuration
  ViewStep step;     ///< the step that reached it (the root: step 0), for runs that leave out their prefix
  std::uint32_t depth = 0;
  ShortList<Key, 8> enabled;             ///< enabled here (known once an execution passed through)
  ShortList<Key, 8> receivers;           ///< receivers[i] receives enabled[i]
  ShortList<Key, 2> backtrack;           ///< deliveries (labels) to explore from here, in the order added
  ShortList<Key, 2> backtrack_messages;  ///< backtrack[i]'s message: itself, or a label's
  ShortList<Key, 2> done;                ///< messages handed out from here (explored or in flight)
  /// Messages whose delivery from here ended a run in a failure that cut it off (race.hpp,
  /// find_cut_off_race): they never sleep below a sibling, whose continuation they did not see.
  ShortList<Key, 1> cut_off;
  SleepSet sleep;               ///< messages asleep here: every delivery of theirs (dependency.md, "Choices")
  bool freeze = false;          ///< TransDPOR: an addition is waiting to be explored
  Key latest = kNoKey;          ///< the message handed out last from here (the first run's, at first)
  bool listed = false;          ///< on the explorer's list of nodes with open choices
  std::uint32_t items_out = 0;  ///< items handed out from here and not completed yet
  /// Few per node (often one): a vector searched in order beats a hash map in time and memory.
  ShortList<std::pair<Key, std::unique_ptr<Node>>, 1> children;

  template <class Keys>
  static bool contains(const Keys& set, Key key) {
    return std::find(set.begin(), set.end(), key) != set.end();
  }
  bool in_backtrack(Key m) const { return contains(backtrack, m); }
  /// The slot of the child reached by delivering `m` (empty when there is none yet).
  std::unique_ptr<Node>& child(Key m) {
    for (auto& [via_key, node] : children) {
      if (via_key == m) return node;
    }
    return children.emplace_back(m, nullptr).second;
  }
  /// Whether delivery `m` (a backtrack entry, or a message) sleeps here: its message does.
  bool asleep(Key m) const {
    for (std::size_t i = 0; i < backtrack.size(); ++i) {
      if (backtrack[i] == m) return sleep.asleep(backtrack_messages[i]);
    }
    return sleep.asleep(m);
  }
  /// The receiver of `m`, which is enabled here.
  Key receiver_of(Key m) const {
    for (std::size_t i = 0; i < enabled.size(); ++i) {
      if (enabled[i] == m) return receivers[i];
    }
    return kNoKey;
  }
  bool is_done(Key m) const { return contains(done, m); }
  /// Adds delivery `m` (a message, or a label of `message`) to the backtrack set; false when it was
  /// there already.
  bool add_backtrack(Key m, Key message = kNoKey) {
    if (in_backtrack(m)) return false;
    backtrack.push_back(m);
    backtrack_messages.push_back(message == kNoKey ? m : message);
    return true;
  }
  /// True when some backtrack entry is neither done nor asleep.
  bool has_open_choice() const {
    return std::any_of(backtrack.begin(), backtrack.end(), [&](Key m) { return !is_done(m) && !asleep(m); });
  }
};

}  // namespace exocheck::engine
