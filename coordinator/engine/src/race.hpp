#pragma once
// Race detection for actor programs (TransDPOR paper, Section 5, Fig. 2 lines 4-5): a pending
// message m races with the last step i of its receiver that does not happen before m's send.

#include <optional>
#include <vector>

#include "exocheck/engine/options.hpp"
#include "names.hpp"
#include "short_list.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

struct Race {
  std::size_t step = 0;             ///< i: the racing step; the choice is made at pre(S, i)
  Key message = kNoKey;             ///< m
  Key taken = kNoKey;               ///< msg(S_i): the delivery (its label) this execution took at pre(S, i)
  ShortList<Key, 2> dpor_set;       ///< DPOR's E: m if enabled at pre(S, i), then msg(S_j) for every
                                    ///< j > i with j ->_S m that is enabled there, by increasing j (each
                                    ///< the delivery as it was: its label when its handler chose)
  ShortList<Key, 2> dpor_messages;  ///< dpor_set[i]'s message
  Key minimal = kNoKey;             ///< TransDPOR's E: m if enabled, else msg(S_j) for the minimal such j
                                    ///< if enabled; kNoKey when E is empty
  Key minimal_message = kNoKey;     ///< minimal's message
  bool cut_off = false;             ///< find_cut_off_race's: step i ended the run, with m enabled
  /// The monitors' lanes m's delivery notified on (after step `point`), or every lane when m was
  /// not delivered there and may notify (dependency.hpp).
  MonitorLanes notifies = MonitorLanes::none();
  /// Step i or m's delivery notified a monitor (or may): the race is about two lanes at once, which
  /// the tree reductions' shortcuts do not allow for (dpor_policy.cpp, transdpor_policy.cpp).
  bool monitors = false;
};

/// The races of message `m` (received by `receiver`) in the configuration after step `point`:
/// none, or the race with the receiver's last step co-enabled with m, and where m's delivery is step
/// point + 1 and notified a monitor, the race with the latest step before it that notified one
/// (dependency.md, "Specification monitors") (steps at whose
/// configuration m was pending but held back by a guard are not, nor those whose message
/// `delivery` puts before m). Written over `races` (the caller's, reused from one message to the
/// next: it is asked once per message of every result). Without `backtrack_sets`, a race has no
/// dpor_set or minimal (optimal DPOR needs neither): making them reads the steps after the race's,
/// which over a run's races is quadratic in its length.
void find_races(const TraceView& trace, Delivery delivery, Key m, Key receiver, std::size_t point,
                std::vector<Race>& races, bool backtrack_sets = true);

/// A run a failure ended in its last step n (an assert(), a crash, an exit: the process ends
/// there) while `m`, pending at the end, was enabled at pre(S, n) for an actor step n is
/// independent of: the run was cut off, and m could have gone before step n, which ended
/// everything; what follows m is then explored too. Step n is dependent with such an m (the
/// dependency find_races() leaves to the lanes does not see it): their race, or none. Not with the
/// earlier steps of other actors: the failure moved before them is the same failure with less
/// delivered (dependency.md, "A run a failure cuts off").
void find_cut_off_race(const TraceView& trace, Key m, std::vector<Race>& races);

/// Whether a failure cut the run off: some message of `pending` (the trace's pending_at_end())
/// has a race find_cut_off_race() finds (written over `races`).
bool cut_off(const TraceView& trace, const std::vector<Key>& pending, std::vector<Race>& races);

}  // namespace exocheck::engine
