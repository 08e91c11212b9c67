#pragma once
// Which of an agent's collected reports go out (DESIGN.md, "Distribution"): one that carries
// something (figures that moved, races, splits, bugs, a subtree's end, a launch failure), or that
// says something new about the agent (its hunger, the leases or backtrack requests it has
// received). Not a report a second from an agent that has nothing new: an idle, hungry agent that
// has said so is not heard again until it has something to say, since reports are sent again until
// acked (once is enough) and the coordinator knows an agent is there by its stream, not by its
// reports. Shared by exocheck-agent and the simulated agents of exocheck-agent-swarm, so that the
// benchmark's coordinator hears what a real one would.

#include <cstdint>

#include "proto/coordinator.pb.h"

namespace exocheck::agent {

class ReportGate {
 public:
  /// Whether `report`, as collected, is worth sending; when it is, what it says is remembered as
  /// said.
  bool worth_sending(const proto::Report& report) {
    const bool moved = report.splits_size() > 0 || report.backtracks_size() > 0 || report.progress_size() > 0 ||
                       report.bugs_size() > 0 || report.done_size() > 0 || !report.launch_failure().empty();
    // The coordinator forgets the requests an agent has received: they are said at most once a report.
    const bool delivered = report.backtracks_seen() != backtracks_reported_;
    if (!moved && !delivered && report.hungry() == hungry_reported_ && report.leases_seen() == leases_reported_) {
      return false;
    }
    leases_reported_ = report.leases_seen();
    backtracks_reported_ = report.backtracks_seen();
    hungry_reported_ = report.hungry();
    return true;
  }

 private:
  std::uint64_t leases_reported_ = 0;
  std::uint64_t backtracks_reported_ = 0;
  bool hungry_reported_ = false;
};

}  // namespace exocheck::agent
