#include "configuration_sleep.hpp"

#include <algorithm>
#include <iterator>

namespace exocheck::engine {

std::vector<Taken> taken_before(const Names& names, const Configuration& from, Key label) {
  const Key message = label == kNoKey ? kNoKey : names.base(label);
  std::vector<Taken> before;
  for (const Taken& t : from.done) {
    if (names.base(t.message) == message) break;
    if (!t.unsure && !t.cut_off) before.push_back(t);
  }
  return before;
}

SleepSet sleep_after(const Names& names, const Configuration& from, const WakeupEvent& p, bool finished_only) {
  std::vector<Key> done;
  for (const Taken& t : taken_before(names, from, p.message)) {
    if (t.finished || !finished_only) done.push_back(names.base(t.message));
  }
  return from.sleep.after(names.base(p.message), p.receiver, p.notifies, done, [&](Key m) {
    for (const Taken& t : from.done) {
      if (names.base(t.message) == m) return Pending{m, t.receiver, t.notifies};
    }
    return Pending{m, kNoKey, MonitorLanes::from_flag(names.notifications_seen())};
  });
}

bool may_give_away(const Names& names, const Configuration& from, PathFacts& facts) {
  const WakeupEvent& first = from.wakeup.first();
  if (first.tentative || facts.pinned(from) || !facts.settled(from)) return false;
  // A subtree's explorer does not see the configurations above its root: its paths are its
  // classes' own (class_representative.cpp) only if its sleep set holds every choice taken before
  // it. A tentative choice whose run is not back sleeps nowhere yet, and a label taken again
  // explores a class again, whose message a sleep set cannot hold where it is delivered.
  const auto unsure_or_same = [&](const Taken& t) { return t.unsure || t.message == first.message; };
  if (std::any_of(from.done.begin(), from.done.end(), unsure_or_same) || facts.below_a_second_taking(from)) {
    return false;
  }
  const SleepSet given = sleep_after(names, from, first, true);
  const SleepSet algorithm = sleep_after(names, from, first);
  return std::distance(given.begin(), given.end()) == std::distance(algorithm.begin(), algorithm.end());
}

MonitorLanes notified(const std::vector<Configuration*>& entries, std::size_t k, Taken& taken, MonitorLanes lanes) {
  if (!lanes.without(taken.notifies)) return MonitorLanes::none();  // as it was taken to
  taken.notifies = taken.notifies | lanes;
  for (std::size_t j = k; j < entries.size(); ++j) {
    if (entries[j] != nullptr) entries[j]->sleep.wake_notifying(lanes);
  }
  return lanes;
}

}  // namespace exocheck::engine
