#pragma once
// One controlled execution of a subject process: launch, hand over the run request, collect
// events and the result, and turn every misbehaviour of the subject into a precise report.
// The runner never crashes and never hangs because of what the subject does.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "proto/control.pb.h"
#include "proto/trace.pb.h"

namespace exocheck::agent {

/// What to run and how.
struct RunSpec {
  std::string binary;             ///< path of the subject binary (searched in PATH if it has no '/')
  std::vector<std::string> args;  ///< its arguments
  proto::RunRequest request;      ///< prefix, heuristic, step limit, ranking (protocol_version is filled in)
  std::chrono::milliseconds timeout{10'000};  ///< per-run wall-clock limit; then the process group is killed
};

/// Everything one run produced. `result.status` is always set (never RUN_UNKNOWN).
struct RunReport {
  std::vector<proto::Event> events;  ///< every event the hook wrote, in order, also when it crashed
  proto::RunResult result;           ///< the hook's verdict, or the runner's when the process misbehaved
  bool hello_seen = false;           ///< the subject announced itself: it is linked with the hook
};

/// Runs one controlled execution per call. Stateless between calls; safe to use from one thread
/// at a time per instance (use one instance per slot).
class Runner {
 public:
  /// Runs `spec` to its end and reports. Never throws because of the subject's behaviour.
  RunReport run(const RunSpec& spec);
};

}  // namespace exocheck::agent
