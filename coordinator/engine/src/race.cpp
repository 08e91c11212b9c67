#include "race.hpp"

#include <algorithm>

namespace exocheck::engine {
namespace {

bool enabled_before(const TraceView& trace, std::size_t step, Key m) {
  const auto& enabled = trace.step(step).enabled;
  return std::find(enabled.begin(), enabled.end(), m) != enabled.end();
}

/// m was sent before step i (so pending at pre(S, i): it is delivered after i) and not enabled
/// there; or sent after it, and its receiver's guard rejects it in its state at pre(S, i).
bool held_back_at(const TraceView& trace, std::size_t i, Key m) {
  const std::size_t sent = trace.send_step(m);
  return sent < i ? !enabled_before(trace, i, m) : trace.rejected_before(i, m);
}

/// Whether step 0 sent `earlier` no later than a step-0 message delivered in the causal past of
/// step `b` (b itself included): step 0 is one step, so `earlier` then precedes what b sends.
bool step_zero_send_before(const TraceView& trace, Key earlier, std::size_t b) {
  for (std::size_t k = 1; k <= b; ++k) {
    const Key delivered = trace.step(k).message;
    if (trace.send_step(delivered) != 0 || (k != b && !trace.happens_before(k, b))) continue;
    if (delivered == earlier || trace.sent_first_in_step(0, earlier, delivered)) return true;
  }
  return false;
}

/// Whether the delivery order puts msg(S_i) before m at their receiver (dependency.md, "Delivery
/// orders"): sent first on the same channel (FIFO), or causally first (causal). Then m cannot be
/// delivered where step i's message is pending and accepted, so it does not race with step i.
bool ordered_before(const TraceView& trace, Delivery delivery, std::size_t i, Key m) {
  // A firing is held back by nothing sent after its arming (delivery_order.hpp's goes_first).
  if (delivery == Delivery::kUnordered || trace.step(i).timer) return false;
  const Key earlier = trace.step(i).message;
  const std::size_t a = trace.send_step(earlier);
  const std::size_t b = trace.send_step(m);
  if (a > b || (a == b && !trace.sent_first_in_step(a, earlier, m))) return false;
  if (delivery == Delivery::kFifo) return trace.sender_of(earlier) == trace.sender_of(m);
  // A CAF program's step 0 is main's code and its actors' starts, each on a thread of its own.
  if (a == 0) {
    if (const auto before = trace.start_send_before(earlier, m, b)) return *before;
  }
  if (a == b) return true;
  return a != 0 ? trace.happens_before(a, b) : step_zero_send_before(trace, earlier, b);
}

/// DPOR's E from the steps after i up to `last` that `leads` (each delivery as it was, its
/// handler's choices included: it leads there as it did): those enabled at pre(S, i), by increasing
/// step, the first of them TransDPOR's. False when no step leads there.
template <class Leads>
bool add_leading_steps(const TraceView& trace, Race& race, std::size_t i, std::size_t last, Leads leads) {
  bool first = true;
  for (std::size_t j = i + 1; j <= last; ++j) {
    if (!leads(j)) continue;
    const Key candidate = trace.step(j).label;
    const Key message = trace.step(j).message;
    const bool usable = enabled_before(trace, i, message);
    if (first && usable) {
      race.minimal = candidate;
      race.minimal_message = message;
    }
    first = false;
    if (usable && std::find(race.dpor_set.begin(), race.dpor_set.end(), candidate) == race.dpor_set.end()) {
      race.dpor_set.push_back(candidate);
      race.dpor_messages.push_back(message);
    }
  }
  return !first;
}

/// The race of m with step i of its receiver (i does not happen before m).
Race race_with(const TraceView& trace, Key m, std::size_t i, std::size_t point, bool backtrack_sets = true) {
  Race race;
  race.step = i;
  race.message = m;
  race.taken = trace.step(i).label;
  if (!backtrack_sets) return race;
  if (enabled_before(trace, i, m)) {
    // m was pending before step i, so no later step can have caused it.
    race.dpor_set.push_back(m);
    race.dpor_messages.push_back(m);
    race.minimal = race.minimal_message = m;
    return race;
  }
  add_leading_steps(trace, race, i, point, [&](std::size_t j) { return trace.happens_before_message(j, m); });
  return race;
}

/// The race of step i with m's delivery, step j, on the monitors' lane. Unlike a race on the
/// receiver's lane, the receiver may have had steps between i and j (not after i): m delivered at
/// pre(S, i) would come before them, another order than the reversal's. DPOR's E is the first
/// deliveries of notdep(i, S).m: the steps after i not after it that lead to step j (m's sending,
/// the receiver's steps before j), those enabled at pre(S, i) by increasing step, or m itself
/// when none leads there.
Race monitor_race_with(const TraceView& trace, Key m, std::size_t i, std::size_t j, bool backtrack_sets) {
  Race race;
  race.step = i;
  race.message = m;
  race.taken = trace.step(i).label;
  if (!backtrack_sets) return race;
  const std::uint32_t own = trace.own_clock_entry(i);
  const bool led = add_leading_steps(trace, race, i, j - 1, [&](std::size_t k) {
    return !trace.happens_before(i, own, k) && trace.happens_before(k, j);
  });
  if (!led && enabled_before(trace, i, m)) {
    race.dpor_set.push_back(m);
    race.dpor_messages.push_back(m);
    race.minimal = race.minimal_message = m;
  }
  return race;
}

/// The races of m's delivery, step point + 1, which notified monitors, each with the latest earlier
/// step on one of its monitors' lanes (dependency.md "Specification monitors"). Earlier ones on
/// that lane happen before that one. A race when that step i happens before step point + 1 only
/// through their notifications: not before m's sending, nor before the receiver's step before it,
/// nor before a step on every lane between them. Then every step not after i, in order, leaves the
/// receiver as it was before m's delivery and m sent: m can go before i. Steps on the receiver's
/// lane are the receiver's race's.
void find_monitor_races(const TraceView& trace, Key m, Key receiver, std::size_t point, std::vector<Race>& races,
                        bool backtrack_sets) {
  if (dependency::lane(receiver) == dependency::kEveryLane) return;  // every step is the receiver's race's
  const std::size_t on_receivers_lane = races.size();
  trace.for_each_monitor_lane(point + 1, [&](Key lane) {
    const std::size_t i = trace.latest_step_on_lane(lane, point);
    if (i == 0 || trace.step(i).lane() == dependency::lane(receiver) || trace.step(i).every_lane) return;
    const auto same = [i](const Race& race) { return race.step == i; };
    if (std::any_of(races.begin() + static_cast<std::ptrdiff_t>(on_receivers_lane), races.end(), same)) return;
    if (trace.happens_before_message(i, m) || trace.every_lane_step_between(i, point + 1)) return;
    const std::size_t before = trace.latest_step_on_lane(dependency::lane(receiver), point);
    if (before != 0 && trace.happens_before(i, before)) return;
    races.push_back(monitor_race_with(trace, m, i, point + 1, backtrack_sets));
  });
}

}  // namespace

// Guards (the soundness argument is in dependency.md, "Guards and races"): a message m
// that was pending at pre(S, i) but not enabled there (its receiver's guard, a reply awaited, an
// earlier message of its FIFO channel) is not co-enabled with step i, so the two do not race, and
// the race is with the receiver's latest earlier step at which m was enabled, or whose pre(S, .)
// m had not reached yet and whose state the receiver's guard (tested by the hook on a view it kept)
// does not reject m in. Taking the race at i regardless gave DPOR an empty E there, and Fig. 2's
// line 7 then added every enabled message: the blow-up guards caused.
void find_races(const TraceView& trace, Delivery delivery, Key m, Key receiver, std::size_t point,
                std::vector<Race>& races, bool backtrack_sets) {
  races.clear();
  const bool delivered_next = point < trace.size() && trace.step(point + 1).message == m;
  const MonitorLanes notifies =
      delivered_next ? trace.step(point + 1).notifies : MonitorLanes::from_flag(trace.notifications_seen());
  // "The last step dependent and co-enabled with m" (Fig. 2 line 4). Dependent steps are on one
  // lane, totally ordered: if one happens before m, all earlier ones do too.
  for (std::size_t i = trace.latest_dependent_step(receiver, point); i != 0;
       i = trace.latest_dependent_step(receiver, i - 1)) {
    if (trace.happens_before_message(i, m)) break;
    if (held_back_at(trace, i, m) || ordered_before(trace, delivery, i, m)) continue;
    races.push_back(race_with(trace, m, i, point, backtrack_sets));
    break;
  }
  if (delivered_next && notifies) find_monitor_races(trace, m, receiver, point, races, backtrack_sets);
  for (Race& race : races) {
    race.notifies = notifies;
    race.monitors = static_cast<bool>(notifies) || trace.step(race.step).notified;
  }
}

void find_cut_off_race(const TraceView& trace, Key m, std::vector<Race>& races) {
  races.clear();
  const std::size_t last = trace.size();
  if (!trace.ended_in_failure() || last == 0 || !enabled_before(trace, last, m)) return;
  // A delivery to step n's lane (or to every lane) is find_races()'s: m raced with step n there.
  if (trace.latest_dependent_step(trace.receiver(m), last) == last) return;
  races.push_back(race_with(trace, m, last, last));
  races.back().cut_off = true;
  races.back().notifies = MonitorLanes::from_flag(trace.notifications_seen());  // m was never delivered: it may notify
}

bool cut_off(const TraceView& trace, const std::vector<Key>& pending, std::vector<Race>& races) {
  return trace.ended_in_failure() && std::any_of(pending.begin(), pending.end(), [&](Key m) {
           find_cut_off_race(trace, m, races);
           return !races.empty();
         });
}

}  // namespace exocheck::engine
