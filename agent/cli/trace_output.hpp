#pragma once
// How a trace reaches stdout: the readable timeline, or protobuf's JSON form with --json.

#include <string>

#include "proto/trace.pb.h"

namespace exocheck::cli {

/// The trace as indented JSON with the .proto field names.
std::string trace_as_json(const proto::TraceFile& trace);

/// Prints `trace` to stdout as JSON or as the timeline.
void print_trace(const proto::TraceFile& trace, bool json);

/// Exit status for a finished run: kNoBug when it completed, kStoppedByLimit when it was cut at the
/// step limit, kBug otherwise.
int exit_status_of(const proto::RunResult& result);

}  // namespace exocheck::cli
