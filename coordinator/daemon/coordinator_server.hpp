#pragma once
// The coordinator's gRPC front: AgentService and ClientService (coordinator.proto) over a
// JobDispatcher, plus the clock that expires leases. gRPC stays out of this header on purpose:
// its headers are slow to compile.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "exocheck/link/link_settings.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {

/// What came over the links, for the metrics.
struct LinkCounters {
  std::atomic<std::uint64_t> agent_messages{0};  ///< messages read from agent streams
  std::atomic<std::uint64_t> agent_bytes{0};     ///< their serialized size
  std::atomic<std::uint64_t> agent_writes{0};    ///< messages written to agent streams
  std::atomic<std::uint64_t> client_calls{0};    ///< calls of the client service
  std::atomic<std::uint64_t> refused_calls{0};   ///< calls and streams refused for their token
};

class CoordinatorServer {
 public:
  /// Listens on `address` ("host:port"; port 0 picks a free one) and serves `dispatcher`, which
  /// must outlive the server, over the link `link` secures (TLS, and a token every call must
  /// carry). Throws std::runtime_error when the address cannot be bound.
  CoordinatorServer(const std::string& address, JobDispatcher& dispatcher, const link::LinkSettings& link = {});
  ~CoordinatorServer();
  CoordinatorServer(const CoordinatorServer&) = delete;
  CoordinatorServer& operator=(const CoordinatorServer&) = delete;

  /// The port actually bound.
  int port() const;
  const LinkCounters& counters() const;
  /// Blocks until shutdown() is called (from another thread or a signal watcher).
  void wait();
  /// Stops accepting calls, ends open streams (agents reconnect elsewhere) and returns.
  void shutdown();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace exocheck::coordinator
