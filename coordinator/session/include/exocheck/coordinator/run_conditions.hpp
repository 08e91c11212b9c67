#pragma once
// What every run of an exploration (or of one `run`, `replay` or `shrink`) is asked under,
// whatever its prefix, and the one place that writes it into a run request and into a trace's
// header: an option added here reaches the hook and the traces of every command at once.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "exocheck/engine/options.hpp"
#include "proto/control.pb.h"
#include "proto/trace.pb.h"

namespace exocheck::coordinator {

struct RunConditions {
  engine::Heuristic heuristic = engine::Heuristic::kFifo;
  engine::Delivery delivery = engine::Delivery::kUnordered;
  engine::Timers timers = engine::Timers::kAnytime;
  std::uint64_t step_limit = 0;      ///< 0 = no limit
  proto::FaultBudget faults;         ///< the faults a run may suffer
  std::uint32_t liveness_bound = 0;  ///< RunRequest.liveness_bound
};

/// The request that runs `prefix` under `conditions` (HMS and SGR become RANKED with `ranking`),
/// written over `request`: an earlier request's strings are reused, not allocated again (protobuf
/// keeps a cleared repeated field's elements). The frame stamps the protocol version.
void to_request(const RunConditions& conditions, std::span<const std::string> prefix,
                const std::vector<std::string>& ranking, proto::RunRequest& request);

/// A new trace of a run of `subject` under `conditions` (wire::new_trace_file); the caller adds
/// the prefix, the events and the result.
proto::TraceFile new_trace(const std::string& subject, const std::vector<std::string>& args,
                           const RunConditions& conditions, const std::vector<std::string>& ranking);

}  // namespace exocheck::coordinator
