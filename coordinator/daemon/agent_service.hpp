#pragma once
// AgentService (coordinator.proto) over a JobDispatcher, on gRPC's asynchronous API with one
// completion queue and one thread for every agent stream: that thread reads each report, applies
// it, and writes what it made for any agent; what other threads made (the ticker's, a client's)
// reaches it through an alarm on its queue. With a reader and a writer thread per stream (the
// synchronous API), handing each message between threads was half of the coordinator's CPU at a
// thousand agents; on the callback API, gRPC's two threads for its queue, waking each other for
// most messages, were still a third (tests/bench/results-2026-11-29.md). Included by
// coordinator_server.cpp only: it includes gRPC.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <grpcpp/alarm.h>
#include <grpcpp/grpcpp.h>

#include "coordinator_server.hpp"
#include "proto/coordinator.grpc.pb.h"

namespace exocheck::coordinator {

class AgentStream;

/// What a tag on the service's queue stands for.
enum class Happened { kAccepted, kRead, kWritten, kFinished, kWoken };

/// A tag on the service's queue: what happened, and to which stream (none for kWoken).
struct QueueTag {
  AgentStream* stream = nullptr;
  Happened what = Happened::kWoken;
};

class AgentServiceImpl final : public proto::AgentService::AsyncService {
 public:
  AgentServiceImpl(JobDispatcher& dispatcher, LinkCounters& counters, std::string token);
  /// Stops (stop()).
  ~AgentServiceImpl() override;
  AgentServiceImpl(const AgentServiceImpl&) = delete;
  AgentServiceImpl& operator=(const AgentServiceImpl&) = delete;

  /// Registers the service and its queue, before the server is built.
  void add_to(grpc::ServerBuilder& builder);
  /// Serves agent streams, once the server is built and started.
  void start();
  /// Ends the queue's thread, once the server is shut down (which ends every stream).
  void stop();

  /// The dispatcher has something for agent stream `agent` (called under its lock, from any thread).
  void wake(std::uint64_t agent);

 private:
  friend class AgentStream;
  void run();
  /// The agents woken by other threads, now to be written; true when the service stops.
  bool take_woken();
  /// Writes what the dispatcher has for each agent woken so far.
  void send_woken();
  void accept_next();
  void forget(AgentStream& stream);

  JobDispatcher& dispatcher_;
  LinkCounters& counters_;
  const std::string token_;
  std::unique_ptr<grpc::ServerCompletionQueue> queue_;
  // The queue's thread's: the streams by agent (each owns itself), and those woken on it.
  std::unordered_map<std::uint64_t, AgentStream*> by_agent_;
  std::vector<std::uint64_t> woken_here_;
  bool shut_ = false;  ///< the queue is shut down: nothing more is started on it
  // Woken from other threads: handed to the queue's thread by `alarm_`, set while `alarm_set_`.
  std::mutex mutex_;
  std::vector<std::uint64_t> woken_;
  bool alarm_set_ = false;
  bool stopping_ = false;
  grpc::Alarm alarm_;
  QueueTag woken_tag_;  ///< the alarm's
  std::thread thread_;
  std::once_flag stopped_;
};

}  // namespace exocheck::coordinator
