#pragma once
// The agent daemon's work: hold one stream to the coordinator, explore the subtrees it leases with
// the exploration engine (one session per subtree, SubtreeSessions) on `slots` worker threads (the
// LocalAgent embedded mode uses), report what they find, and reconnect with back-off whenever the
// coordinator is away. gRPC stays out of this header: its headers are slow to compile.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "exocheck/link/link_settings.hpp"
#include "subject_policy.hpp"

namespace exocheck::agent {

struct AgentDaemonOptions {
  std::string coordinator;  ///< host:port
  std::uint32_t slots = 1;  ///< runs at once
  std::string name;         ///< shown in the coordinator's logs and refusals
  bool fork_server = true;  ///< runs fork from a server of the subject (Runner); false: exec per run
  bool in_place = true;     ///< the server performs its runs in place where it can (RunnerOptions)
  SubjectPolicy subjects;   ///< which binaries it runs
  link::LinkSettings link;  ///< TLS and token of its link to the coordinator
  /// Pauses between attempts to reach the coordinator, doubling from the first to the most. The most
  /// stays well below the coordinator's reattach grace (3 s): an agent back within it keeps its
  /// subtrees across a coordinator restart, one back later sees them explored again from their roots.
  std::chrono::milliseconds first_backoff{200};
  std::chrono::milliseconds max_backoff{1'000};
};

class AgentDaemon {
 public:
  explicit AgentDaemon(AgentDaemonOptions options);
  ~AgentDaemon();
  AgentDaemon(const AgentDaemon&) = delete;
  AgentDaemon& operator=(const AgentDaemon&) = delete;

  /// Serves the coordinator until stop(), then returns 0; never returns because of a subject or
  /// the network. Returns 2 when the coordinator refuses this agent (its token).
  int run();
  /// Ends run(): closes the stream; runs in progress are killed, their subtrees unexplored. Safe
  /// from any thread.
  void stop();
  /// This agent's metrics (agent_metrics.hpp), now. Safe from any thread.
  std::string metrics() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace exocheck::agent
