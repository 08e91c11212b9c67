#pragma once
// One controlled execution through the runner, returned as a self-describing trace file.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/bounds.hpp"
#include "proto/control.pb.h"
#include "proto/trace.pb.h"
#include "subject_command.hpp"

namespace exocheck::agent {
class Runner;
}

namespace exocheck::cli {

/// The effective settings of one run; all of them end up in the trace file.
struct RunSettings {
  std::string subject;              ///< subject binary as the user gave it
  std::vector<std::string> args;    ///< its arguments
  std::vector<std::string> prefix;  ///< message ids to deliver first
  engine::Heuristic heuristic = engine::Heuristic::kFifo;
  engine::Delivery delivery = engine::Delivery::kUnordered;
  engine::Timers timers = engine::Timers::kAnytime;
  proto::FaultBudget faults;         ///< the faults a run may suffer: a recorded run's, to replay it
  std::uint32_t liveness_bound = 0;  ///< RunRequest.liveness_bound: a recorded run's, to replay it
  /// 0 = no limit.
  std::uint64_t step_limit = options::kDefaultStepLimit;
  std::vector<std::string> ranking;  ///< actor ranking for HMS and SGR (sent as RANKED)
  std::chrono::milliseconds timeout = options::kDefaultRunTimeout;
};

/// Runs the subject once under control and records everything. Throws InputError when the
/// subject could not be launched (missing binary, not linked with the hook): nothing ran.
proto::TraceFile record_run(const RunSettings& settings);
/// The same on `runner`: a caller that runs the subject again and again keeps its fork server.
proto::TraceFile record_run(const RunSettings& settings, agent::Runner& runner);

/// The schedule that reproduces `recorded`: every delivered message's label in order. A recorded
/// divergence also names the message that was not enabled, so that the replay diverges there too.
std::vector<std::string> schedule_of(const proto::TraceFile& recorded);

/// The settings that run `recorded`'s schedule again: its subject (or the one after '--'), its
/// heuristic, delivery order, timer semantics, step limit and ranking. Throws InputError, naming `command`, when they
/// cannot be had.
RunSettings settings_to_replay(const proto::TraceFile& recorded, const SubjectCommand& subject,
                               std::chrono::milliseconds timeout, const std::string& command);

}  // namespace exocheck::cli
