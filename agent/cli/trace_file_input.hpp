#pragma once
// Reading a trace file named on the command line: a bad file is an input error (exit 2).

#include <string>

#include "proto/trace.pb.h"

namespace exocheck::cli {

/// Reads the trace file at `path`; throws InputError with the reader's one-line reason.
proto::TraceFile load_trace_file(const std::string& path);

}  // namespace exocheck::cli
