#include "race.hpp"

#include <algorithm>

namespace exocheck::engine {
namespace {

bool enabled_before(const TraceView& trace, std::size_t step, Key m) {
  const auto& enabled = trace.step(step).enabled;
  return std::find(enabled.begin(), enabled.end(), m) != enabled.end();
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

void find_races(const TraceView& trace, Key m, Key receiver, std::size_t point, std::vector<Race>& races) {
  races.clear();
  // "The last step dependent and co-enabled with m" (Fig. 2 line 4). Steps of one actor are
  // totally ordered: if the latest one happens before m, all earlier ones do too.
  const std::size_t i = trace.latest_coenabled_step_of(receiver, point);
  if (i == 0 || trace.happens_before_message(i, m)) return;
  races.push_back(race_with(trace, m, i, point));
  if (races.front().minimal != kNoKey) return;

  // Guards: without them, m or the first step leading to it is always enabled at pre(S, i) (a
  // pending message is an enabled one). A guard that closed again (a lock while it is held) can
  // leave m disabled there although it was enabled before an earlier step of its receiver: that
  // reversal is the one that reaches the other classes, so the latest such step races too.
  for (std::size_t e = trace.latest_coenabled_step_of(receiver, i - 1); e != 0;
       e = trace.latest_coenabled_step_of(receiver, e - 1)) {
    if (trace.happens_before_message(e, m)) break;  // and so do all earlier steps of the receiver
    if (enabled_before(trace, e, m)) {
      races.push_back(race_with(trace, m, e, point));
      break;
    }
  }
}

}  // namespace exocheck::engine
