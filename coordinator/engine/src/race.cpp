#include "race.hpp"

#include <algorithm>

namespace exocheck::engine {
namespace {

bool enabled_before(const TraceView& trace, std::size_t step, Key m) {
  const auto& enabled = trace.step(step).enabled;
  return std::find(enabled.begin(), enabled.end(), m) != enabled.end();
}

/// m was sent before step i (so pending at pre(S, i): it is delivered after i) and not enabled there.
bool held_back_at(const TraceView& trace, std::size_t i, Key m) {
  const std::size_t sent = trace.send_step(m);
  return sent < i && !enabled_before(trace, i, m);
}

/// The race of m with step i of its receiver (i does not happen before m).
Race race_with(const TraceView& trace, Key m, std::size_t i, std::size_t point) {
  Race race;
  race.step = i;
  race.message = m;
  race.taken = trace.step(i).message;
  if (enabled_before(trace, i, m)) {
    // m was pending before step i, so no later step can have caused it.
    race.dpor_set.push_back(m);
    race.minimal = m;
    return race;
  }
  bool first = true;
  for (std::size_t j = i + 1; j <= point; ++j) {
    if (!trace.happens_before_message(j, m)) continue;
    const Key candidate = trace.step(j).message;
    const bool usable = enabled_before(trace, i, candidate);
    if (first && usable) race.minimal = candidate;
    first = false;
    if (usable && std::find(race.dpor_set.begin(), race.dpor_set.end(), candidate) == race.dpor_set.end()) {
      race.dpor_set.push_back(candidate);
    }
  }
  return race;
}

}  // namespace

// Guards (the soundness argument is in dependency.md, "Guards and races"): a message m
// that was pending at pre(S, i) but not enabled there (its receiver's guard, a reply awaited, an
// earlier message of its FIFO channel) is not co-enabled with step i, so the two do not race, and
// the race is with the receiver's latest earlier step at which m was enabled, or whose pre(S, .)
// m had not reached yet. Taking the race at i regardless gave DPOR an empty E there, and Fig. 2's
// line 7 then added every enabled message: the blow-up guards caused.
void find_races(const TraceView& trace, Key m, Key receiver, std::size_t point, std::vector<Race>& races) {
  races.clear();
  // "The last step dependent and co-enabled with m" (Fig. 2 line 4). Dependent steps are on one
  // lane, totally ordered: if one happens before m, all earlier ones do too.
  for (std::size_t i = trace.latest_dependent_step(receiver, point); i != 0;
       i = trace.latest_dependent_step(receiver, i - 1)) {
    if (trace.happens_before_message(i, m)) return;
    if (held_back_at(trace, i, m)) continue;
    races.push_back(race_with(trace, m, i, point));
    return;
  }
}

}  // namespace exocheck::engine
