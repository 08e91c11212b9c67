#pragma once
// Sleep sets (Godefroid), the hook's half: a request names the messages asleep once its prefix is
// replayed (the engine's half, coordinator/engine/src/sleep_set.hpp, computes them). The hook
// never delivers a sleeping message, and a step wakes every sleeping message whose delivery is
// dependent with it, by the engine's relation (wire/dependency.hpp): a message to the step's actor
// (that step may change how it handles it), and one that notifies on a lane of the monitors the
// step notified (RunRequest.sleep_notifying and sleep_notifying_lanes; one named on no lane
// notifies on any).
// When every enabled message sleeps, the run is redundant and ends with RUN_SLEEP_BLOCKED.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "exocheck/wire/dependency.hpp"

namespace exocheck::detail {

class SleepSet {
 public:
  /// `lanes[i]`: the lanes of `notifying[i]` (each a list of strings, `.lanes()`); missing or
  /// empty: any.
  template <class Ids, class Lanes>
  void assign(const Ids& ids, const Ids& notifying, const Lanes& lanes) {
    ids_.assign(ids.begin(), ids.end());
    notifying_.clear();
    for (std::size_t i = 0; i < static_cast<std::size_t>(notifying.size()); ++i) {
      Sleeper& sleeper = notifying_.emplace_back(Sleeper{notifying[static_cast<int>(i)], {}});
      if (i >= static_cast<std::size_t>(lanes.size())) continue;
      const auto& named = lanes[static_cast<int>(i)].lanes();
      sleeper.lanes.assign(named.begin(), named.end());
    }
  }
  bool empty() const { return ids_.empty(); }
  bool asleep(const std::string& id) const { return std::find(ids_.begin(), ids_.end(), id) != ids_.end(); }

  /// After a step at `actor` (`notified`: the monitors' lanes it notified on): wakes the messages
  /// `actor` receives, and those that notify on one of `notified`. `receiver_of(id)` is the receiver's id of a
  /// pending message, or nullptr once the message is no longer pending (it wakes too: it can no
  /// longer be chosen). A step or a message on every lane ("*": a timer's firing that depends on
  /// everything, timer_semantics.hpp) wakes, or is woken, with any.
  template <class ReceiverOf>
  void wake_messages_of(const std::string& actor, const std::vector<std::string>& notified, ReceiverOf receiver_of) {
    std::erase_if(ids_, [&](const std::string& id) {
      const std::string* receiver = receiver_of(id);
      return receiver == nullptr || wire::dependency::dependent<std::string_view>(
                                        *receiver, actor, "*", !notified.empty() && notifies_on(id, notified));
    });
  }

 private:
  struct Sleeper {
    std::string id;
    std::vector<std::string> lanes;  ///< empty: any
  };
  bool notifies_on(const std::string& id, const std::vector<std::string>& lanes) const {
    const auto sleeper =
        std::find_if(notifying_.begin(), notifying_.end(), [&](const Sleeper& s) { return s.id == id; });
    if (sleeper == notifying_.end()) return false;
    if (sleeper->lanes.empty()) return true;
    return std::any_of(lanes.begin(), lanes.end(), [&](const std::string& lane) {
      return std::find(sleeper->lanes.begin(), sleeper->lanes.end(), lane) != sleeper->lanes.end();
    });
  }

  std::vector<std::string> ids_;    ///< message ids
  std::vector<Sleeper> notifying_;  ///< of those, the ones that notify, and on which lanes
};

}  // namespace exocheck::detail
