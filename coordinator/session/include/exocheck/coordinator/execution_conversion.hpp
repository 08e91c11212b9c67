#pragma once
// Between the wire and the engine: what the hook recorded (trace.proto) as the engine's
// Execution, and the engine's work item as the hook's RunRequest.

#include <span>
#include <vector>

#include "exocheck/coordinator/run_conditions.hpp"
#include "exocheck/engine/execution.hpp"
#include "exocheck/engine/explorer.hpp"
#include "proto/control.pb.h"
#include "proto/trace.pb.h"

namespace exocheck::coordinator {

/// A run's events without copying them: a result batch's repeated field (`data()`) or pointers
/// into a vector.
using EventSpan = std::span<const proto::Event* const>;
std::vector<const proto::Event*> pointers_to(const std::vector<proto::Event>& events);

/// The engine's view of one run. `events` start with step 0, or with the first step after the
/// run's prefix when the agent left the prefix out (wire/result_events.hpp).
engine::Execution to_execution(EventSpan events, const proto::RunResult& result);
/// The same into `execution`, reusing its storage (one conversion per result: no allocation once
/// the buffers are big enough).
void to_execution(EventSpan events, const proto::RunResult& result, engine::Execution& execution);

/// The step's label and alternatives (engine::Step) from what its handler chose: `values`, each in
/// its range (both conversions of an event call it; wire/delivery_label.hpp names the labels).
void take_choices(const std::vector<std::uint32_t>& ranges, const std::vector<std::uint32_t>& values,
                  engine::Step& step);

/// The run's ending, detail and final state from `result` into `execution` (both conversions
/// of a run end with it).
void take_verdict(const proto::RunResult& result, engine::Execution& execution);

/// The request that runs `item` under `conditions` (run_conditions.hpp), with the item's sleep
/// set, wakeup entries and sample, written over `request`.
void to_request(const engine::WorkItem& item, const RunConditions& conditions, proto::RunRequest& request);

}  // namespace exocheck::coordinator
