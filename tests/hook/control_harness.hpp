#pragma once
// Drives the controlled runtime in-process over a real socketpair, as an agent would, so that
// scheduler tests need no subject process.

#include <functional>
#include <string>
#include <vector>

#include "exocheck/system.hpp"
#include "proto/control.pb.h"

namespace exocheck::testing {

struct ControlledRun {
  bool hello = false;
  std::vector<proto::Event> events;
  proto::RunResult result;
};

/// Builds a request; `prefix` is a list of message ids.
proto::RunRequest request(proto::Heuristic heuristic = proto::FIFO, std::vector<std::string> prefix = {},
                          std::uint64_t step_limit = 0);

/// Runs `program` (spawns and sends on the System it is given) under control with `run_request`.
ControlledRun run_controlled(const proto::RunRequest& run_request, const std::function<void(System&)>& program);

/// The delivered message ids of a run, in order (steps 1..n).
std::vector<std::string> schedule_of(const ControlledRun& run);

}  // namespace exocheck::testing
