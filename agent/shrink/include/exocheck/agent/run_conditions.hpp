#pragma once
// What a run did that a real run does rarely or never, each with the run's schedule changed so
// that it does not happen: a replay of that schedule tells whether a failure needs it (`explore`'s
// "needs:", agent/cli/bug_needs.cpp). Three kinds:
// - a fault the explorer injected (a crash, a message lost or sent twice, a link cut);
// - a timer firing while a message sent before its due time was still undelivered: against a
//   timer's duration, messages take no time, so by hand that message would have gone first;
// - a delivery before a message sent causally before it to the same actor, which FIFO (one
//   sender) or causal delivery never shows.
// Pure logic over trace files.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exocheck/agent/schedule_shrinker.hpp"
#include "proto/trace.pb.h"

namespace exocheck::agent {

enum class ConditionKind { kFault, kEarlyFiring, kOvertaking };

struct RunCondition {
  ConditionKind kind = ConditionKind::kFault;
  std::uint32_t step = 0;  ///< the step it happens in
  std::string text;        ///< for people: what happened, with ids and durations
  /// The trace's schedule changed so that it does not happen: the deliveries before the step,
  /// the step without the fault (or the message it overtook first), then the rest as the trace
  /// went on.
  Schedule without;
  /// How many of `without`'s deliveries lead up to and include the change: a replay that cannot
  /// follow the rest may stop there and let the run go on by itself.
  std::size_t changed_at = 0;
};

/// Every such condition of `trace`, in the order of their steps: one per fault, one per early
/// firing (the message it overtook that was sent first), one per overtaking delivery (likewise).
std::vector<RunCondition> conditions_of(const proto::TraceFile& trace);

/// `schedule` (of `original`'s messages) mended where `diverged`, its replay, stopped at a label
/// that was not enabled (a message moved first renumbers what its receiver sends after it): that
/// label names instead the first message enabled there of the same sender, receiver and type, or
/// goes. Nothing when `diverged` did not diverge within `schedule`.
std::optional<Schedule> mended_at_divergence(const proto::TraceFile& original, const Schedule& schedule,
                                             const proto::TraceFile& diverged);

}  // namespace exocheck::agent
