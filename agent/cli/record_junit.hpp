#pragma once
// `record --junit FILE`: a recorded run as JUnit XML for a CI server: one test case, the program and
// its arguments, failed with the run's status, detail and the command that replays its trace.

#include <string>

#include "proto/trace.pb.h"

namespace exocheck::cli {

/// `trace` is the recording (its result and command line); `saved` the trace file's path (empty:
/// none saved); `seconds` how long the program ran.
std::string recorded_run_junit(const proto::TraceFile& trace, const std::string& saved, double seconds);

}  // namespace exocheck::cli
