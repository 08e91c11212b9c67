#pragma once
// One controlled execution through the runner, returned as a self-describing trace file.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "exocheck/coordinator/run_conditions.hpp"
#include "exocheck/engine/options.hpp"
#include "exocheck/options/bounds.hpp"
#include "proto/control.pb.h"
#include "proto/trace.pb.h"
#include "subject_command.hpp"

namespace exocheck::agent {
class Runner;
}

namespace exocheck::cli {

/// A run's conditions as its commands' defaults are (the default step limit).
inline coordinator::RunConditions with_default_step_limit() {
  coordinator::RunConditions conditions;
  conditions.step_limit = options::kDefaultStepLimit;
  return conditions;
}

/// The effective settings of one run; all of them end up in the trace file.
struct RunSettings {
  std::string subject;              ///< subject binary as the user gave it
  std::vector<std::string> args;    ///< its arguments
  std::vector<std::string> prefix;  ///< message ids to deliver first
  /// Heuristic, delivery order, timers, step limit (0 = none), faults, liveness bound: a recorded
  /// run's, to replay it.
  coordinator::RunConditions conditions = with_default_step_limit();
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
