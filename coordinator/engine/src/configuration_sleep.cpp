#include "configuration_sleep.hpp"

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
  return from.sleep.after(names.base(p.message), p.receiver, done, [&](Key m) {
    for (const Taken& t : from.done) {
      if (names.base(t.message) == m) return t.receiver;
    }
    return kNoKey;
  });
}

}  // namespace exocheck::engine
