#pragma once
// Small hand-built traces for the unit tests: a registry-like run of three steps.

#include "proto/trace.pb.h"

namespace exocheck::cli_test {

/// A completed three-step trace: main creates 0 and sends env#1; 0 creates 0.1 and sends to it.
proto::TraceFile sample_trace();

}  // namespace exocheck::cli_test
