#include "wakeup_placement.hpp"

namespace exocheck::engine {

void WakeupPlacement::offer(Configuration& at, Key taken, WakeupSequence v) {
  WakeupSequence messages = v;  // what sleeps is a message, asleep with every label of it
  for (WakeupEvent& e : messages) {
    e.message = names_.base(e.message);
    if (e.sender != kNoKey) e.sender = names_.base(e.sender);
  }
  for (const Pending& q : at.sleep) {
    if (weak_initial(messages, {.message = q.message, .receiver = q.receiver, .notifies = q.notifies})) return;
  }
  for (const Pending& q : at.held) {
    if (initial_position(v, {.message = q.message, .receiver = q.receiver, .notifies = q.notifies})) return;
  }
  bool after_taken = taken == kNoKey;  // v came down from above: all of them are
  for (const Taken& q : at.done) {
    if (q.message == taken) {
      after_taken = true;
      continue;
    }
    const WakeupEvent choice{
        .message = q.message, .receiver = q.receiver, .label_of = names_.label_of(q.message), .notifies = q.notifies};
    const auto position = initial_position(v, choice);
    if (!position) {
      if (const auto k = other_label_position(v, choice)) return offer_below_label(at, taken, std::move(v), *k);
    }
    // A tentative choice whose run is not back covers only sequences that deliver it; so does one
    // that cut its run off (race.hpp, find_cut_off_race): nothing went on after it.
    if (!position && (q.unsure || q.cut_off || !weak_initial(v, choice))) continue;
    if (!after_taken || q.given_away) return;
    Configuration* below = at.child_of(q.serial);
    if (below == nullptr) return;  // explored, and nothing was taken before it: it covered v
    if (position) v.erase(v.begin() + static_cast<std::ptrdiff_t>(*position));
    if (v.empty() || v.front().rest) return;
    offer(*below, kNoKey, std::move(v));
    return;
  }
  at.wakeup.insert(std::move(v));
  tree_.relist(at);
}

void WakeupPlacement::offer_below_label(Configuration& at, Key taken, WakeupSequence v, std::size_t k) {
  const WakeupEvent first = v[k];
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(k));
  if (const Taken* label = at.taken(first.message)) {
    // Taken before `taken` or given away, its subtree covers v, as in offer.
    const Taken* race = taken == kNoKey ? nullptr : at.taken(taken);
    if (label->given_away || (race != nullptr && label < race)) return;
    Configuration* below = at.child(first.message);
    if (below != nullptr && !v.empty()) offer(*below, kNoKey, std::move(v));
    return;
  }
  at.wakeup.insert_below(first, std::move(v));
  tree_.relist(at);
}

void WakeupPlacement::add_alternative(Configuration& at, Key alternative, Key lane) {
  if (at.taken(alternative) != nullptr) return;
  // Another choice of its handler may notify a monitor where this one did not: taken to, once
  // any run notified one.
  const WakeupEvent event{.message = alternative,
                          .receiver = lane,
                          .chosen = true,
                          .label_of = names_.label_of(alternative),
                          .notifies = MonitorLanes::from_flag(names_.notifications_seen())};
  if (at.wakeup.add_branch(event)) tree_.relist(at);
}

}  // namespace exocheck::engine
