#pragma once
// Shortening a failing schedule: the deliveries the failing step depends on (its causal past), then
// delta debugging (Zeller and Hildebrandt's ddmin) over what is left. Pure logic: whether a
// candidate still fails is the caller's question (a replay, in `exocheck shrink`).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "proto/trace.pb.h"

namespace exocheck::agent {

using Schedule = std::vector<std::string>;  ///< deliveries' labels (message ids), in this order

/// Every delivery of `trace` in order.
Schedule schedule_of_trace(const proto::TraceFile& trace);

/// The deliveries step `step` depends on, itself included, in the trace's order: earlier steps of
/// the same actor, the steps that sent what those received, the step that created the actor, and so
/// on. Delivered in that order alone, they bring the failing actor to the same state.
Schedule causal_past(const proto::TraceFile& trace, std::uint32_t step);

/// The first step whose outcome is not ok, if any.
std::optional<std::uint32_t> failed_step(const proto::TraceFile& trace);

/// `candidate` fails as `original` does: the same run status and, where a step failed, the same
/// actor, message type, outcome and detail at the failing step; for a deadlock, the same actors
/// waiting for the same replies.
bool fails_the_same_way(const proto::TraceFile& original, const proto::TraceFile& candidate);

/// A 1-minimal subsequence of `schedule` for which `still_fails` holds (removing any one delivery
/// more makes it pass), `schedule` itself when nothing can go. `still_fails(schedule)` must hold.
/// Asks `still_fails` at most `max_tests` times, then returns the shortest found so far.
Schedule minimize(Schedule schedule, const std::function<bool(const Schedule&)>& still_fails,
                  std::size_t max_tests = 2000);

}  // namespace exocheck::agent
