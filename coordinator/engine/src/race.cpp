#include "race.hpp"

#include <algorithm>

namespace exocheck::engine {

std::optional<Race> find_race(const TraceView& trace, Key m, Key receiver, std::size_t point) {
  // "The last step dependent and co-enabled with m" (Fig. 2 line 4). Steps of one actor are
  // totally ordered: if the latest one happens before m, all earlier ones do too.
  const std::size_t i = trace.latest_coenabled_step_of(receiver, point);
  if (i == 0 || trace.happens_before_message(i, m)) return std::nullopt;

  const auto& enabled = trace.step(i).enabled;
  auto is_enabled = [&](Key key) { return std::find(enabled.begin(), enabled.end(), key) != enabled.end(); };
  Race race;
  race.step = i;
  race.message = m;
  race.taken = trace.step(i).message;
  if (is_enabled(m)) {
    // m was pending before step i, so no later step can have caused it.
    race.dpor_set.push_back(m);
    race.minimal = m;
    return race;
  }
  bool first = true;
  for (std::size_t j = i + 1; j <= point; ++j) {
    if (!trace.happens_before_message(j, m)) continue;
    const Key candidate = trace.step(j).message;
    const bool usable = is_enabled(candidate);
    if (first && usable) race.minimal = candidate;
    first = false;
    if (usable && std::find(race.dpor_set.begin(), race.dpor_set.end(), candidate) == race.dpor_set.end()) {
      race.dpor_set.push_back(candidate);
    }
  }
  return race;
}

}  // namespace exocheck::engine
