#pragma once
// A lease: the unit of work the coordinator hands to a worker (a local agent's thread or a slot
// of an exocheck-agent). Its life:
//   1. ExplorationSession::next() makes one from the engine's next WorkItem: one run, with its
//      prefix, sleep set, heuristic, step limit and (HMS, SGR) ranking in `request`.
//   2. Embedded mode hands it to a worker thread directly; the daemon's JobDispatcher sends it
//      to an agent's stream under a coordinator-wide id, as a LeaseHeld with a deadline.
//   3. Its result completes it once (ExplorationSession::complete); a second result is ignored.
//   4. A lease whose agent's stream ends or whose deadline passes is abandoned and its work item
//      issued again (ExplorationSession::abandon): no work is lost with an agent.

#include <chrono>
#include <cstdint>

#include "proto/control.pb.h"

namespace exocheck::coordinator {

/// One run to perform: `request` (prefix, sleep set, heuristic, step limit, ranking), once.
struct Lease {
  std::uint64_t id = 0;  ///< the session's id of the work item
  proto::RunRequest request;
};

/// A lease out on an agent's stream, as the dispatcher tracks it under its coordinator-wide id.
struct LeaseHeld {
  std::uint64_t session_id = 0;  ///< Lease::id
  std::uint64_t agent_id = 0;
  std::chrono::steady_clock::time_point deadline;  ///< then it is issued again
};

/// When a lease sent now is given up: twice the run timeout (a lease may wait behind one run at
/// the agent before its own starts), plus `slack` for the way there and back.
inline std::chrono::steady_clock::time_point lease_deadline(std::chrono::steady_clock::time_point now,
                                                            std::chrono::milliseconds run_timeout,
                                                            std::chrono::milliseconds slack) {
  return now + 2 * run_timeout + slack;
}

}  // namespace exocheck::coordinator
