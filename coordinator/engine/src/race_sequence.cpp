#include "race_sequence.hpp"

namespace exocheck::engine {
namespace {

/// The delivery of `m` (a message, or a delivery's label) to `receiver` in a sequence that starts
/// at pre(E, i).
WakeupEvent event_of(const TraceView& trace, const Names& names, Key m, Key receiver, MonitorLanes notifies,
                     std::size_t i) {
  WakeupEvent event{.message = m, .receiver = receiver, .label_of = names.label_of(m), .notifies = notifies};
  const std::size_t sender = trace.send_step(names.base(m));  // a label's message's
  if (sender > i && !trace.happens_before(i, sender)) event.sender = trace.step(sender).label;
  return event;
}

/// Step k, after step i and not after it, as the next event of v = notdep(e_i, E).e'.
void add_event(const TraceView& trace, const Names& names, WakeupSequence& v, std::size_t k, std::size_t i) {
  v.push_back(event_of(trace, names, trace.step(k).label, trace.step(k).lane(), trace.step(k).notifies, i));
  v.back().chosen = trace.step(k).label != trace.step(k).message || !trace.alternatives(k).empty();
}

}  // namespace

// A long run's races would each read most of it: past the reads left for this run, or the events
// a sequence keeps, v stands for its rest with an event dependent with every other
// (WakeupEvent::rest), and the run is analysed in part.
std::optional<WakeupSequence> race_sequence(const TraceView& trace, const Names& names, std::size_t i, Key m,
                                            MonitorLanes notifies, std::size_t end, AnalysisBudget& budget,
                                            const Exploration& exploration) {
  WakeupSequence v;
  bool cut_short = false;
  const std::uint32_t own = trace.own_clock_entry(i);
  for (std::size_t k = i + 1; k <= end; ++k) {
    if (k % kInterruptCheckEvery == 0 && exploration.interrupted()) return std::nullopt;
    if (v.size() == budget.longest_sequence || budget.reads_left == 0) {
      const std::size_t first = v.empty() ? trace.first_step_not_after(i, k, end) : 0;
      if (first != 0) add_event(trace, names, v, first, i);
      cut_short = !v.empty();
      break;
    }
    --budget.reads_left;
    if (!trace.happens_before(i, own, k)) add_event(trace, names, v, k, i);
  }
  budget.cut_short = budget.cut_short || cut_short;
  if (cut_short) {
    v.push_back(WakeupEvent::rest_of_sequence());
  } else {
    WakeupEvent last = event_of(trace, names, m, trace.receiver(m), notifies, i);
    last.tentative = trace.send_step(m) >= i;
    v.push_back(last);
  }
  return v;
}

}  // namespace exocheck::engine
