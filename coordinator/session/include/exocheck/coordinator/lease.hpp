#pragma once
// A lease: one run a worker performs (a local agent's thread, in embedded mode or inside an
// exocheck-agent that explores subtrees). Its life:
//   1. ExplorationSession::next() makes one from the engine's next WorkItem: one run, with its
//      prefix, sleep set, heuristic, step limit and (HMS, SGR) ranking in `request`.
//   2. A worker takes it from its LeaseSource (lease_source.hpp) and runs it.
//   3. Its result completes it once (ExplorationSession::complete); a second result is ignored.
//   4. A run that is lost is abandoned (ExplorationSession::abandon) and its work item issued
//      again. Across machines the coordinator leases subtrees, not runs (job_dispatcher.hpp).

#include <cstdint>

#include "proto/control.pb.h"

namespace exocheck::coordinator {

/// One run to perform: `request` (prefix, sleep set, heuristic, step limit, ranking), once.
struct Lease {
  std::uint64_t id = 0;  ///< the session's id of the work item
  proto::RunRequest request;
};

}  // namespace exocheck::coordinator
