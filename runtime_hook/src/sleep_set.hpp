#pragma once
// Sleep sets (Godefroid), the hook's half: a request names the messages asleep once its prefix is
// replayed (the engine's half, coordinator/engine/src/sleep_set.hpp, computes them). The hook
// never delivers a sleeping message, and a step at actor a wakes every sleeping message a
// receives (that step may change how a handles them), and a step that notified a specification
// monitor wakes every sleeping message that notifies one (RunRequest.sleep_notifying: the
// monitors' lane). When every enabled message sleeps, the run is redundant and ends with
// RUN_SLEEP_BLOCKED.

#include <algorithm>
#include <string>
#include <vector>

namespace exocheck::detail {

class SleepSet {
 public:
  template <class Ids>
  void assign(const Ids& ids, const Ids& notifying) {
    ids_.assign(ids.begin(), ids.end());
    notifying_.assign(notifying.begin(), notifying.end());
  }
  bool empty() const { return ids_.empty(); }
  bool asleep(const std::string& id) const { return std::find(ids_.begin(), ids_.end(), id) != ids_.end(); }

  /// After a step at `actor` (`notified`: it notified a monitor): wakes the messages `actor`
  /// receives, and with `notified` those that notify. `receiver_of(id)` is the receiver's id of a
  /// pending message, or nullptr once the message is no longer pending (it wakes too: it can no
  /// longer be chosen). A step or a message on every lane ("*": a timer's firing that depends on
  /// everything, timer_semantics.hpp) wakes, or is woken, with any.
  template <class ReceiverOf>
  void wake_messages_of(const std::string& actor, bool notified, ReceiverOf receiver_of) {
    std::erase_if(ids_, [&](const std::string& id) {
      const std::string* receiver = receiver_of(id);
      return receiver == nullptr || *receiver == actor || actor == "*" || *receiver == "*" ||
             (notified && std::find(notifying_.begin(), notifying_.end(), id) != notifying_.end());
    });
  }

 private:
  std::vector<std::string> ids_;        ///< message ids
  std::vector<std::string> notifying_;  ///< of those, the ones on the monitors' lane too
};

}  // namespace exocheck::detail
