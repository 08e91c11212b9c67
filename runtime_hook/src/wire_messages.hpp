#pragma once
// The hook's messages: trace.proto and control.proto compiled for protobuf's lite runtime, in
// package exocheck.hook_proto (proto/CMakeLists.txt). Same wire format as the agent's
// exocheck::proto; inside the hook they go by the same name.

#include "hook_proto/hook_control.pb.h"
#include "hook_proto/hook_trace.pb.h"

namespace exocheck::detail {
namespace proto = exocheck::hook_proto;
}  // namespace exocheck::detail
