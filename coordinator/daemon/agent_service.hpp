#pragma once
// AgentService (coordinator.proto) over a JobDispatcher, on gRPC's callback API: an agent's
// stream has no thread of its own. Its reports are applied by reactions on gRPC's threads, which
// send the work a report made for its agent at once; work other operations made for an agent (a
// split asked of it, a subtree it gave away finished, a tick's stop) is sent by one thread for
// every stream. With a reader and a writer thread per stream (the synchronous API), handing each
// message between threads was half of the coordinator's CPU at a thousand agents
// (tests/bench/results-2026-11-29.md). Included by coordinator_server.cpp only: it includes gRPC.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include <grpcpp/grpcpp.h>

#include "coordinator_server.hpp"
#include "proto/coordinator.grpc.pb.h"

namespace exocheck::coordinator {

class StreamWaker;

class AgentServiceImpl final : public proto::AgentService::CallbackService {
 public:
  AgentServiceImpl(JobDispatcher& dispatcher, LinkCounters& counters, std::string token);
  /// Waits for every stream's end: the server was shut down first, which ends them.
  ~AgentServiceImpl() override;
  AgentServiceImpl(const AgentServiceImpl&) = delete;
  AgentServiceImpl& operator=(const AgentServiceImpl&) = delete;

  grpc::ServerBidiReactor<proto::AgentMessage, proto::CoordinatorMessage>* Connect(
      grpc::CallbackServerContext* context) override;

  /// Streams not yet done, counted by each stream (AgentStream).
  struct LiveStreams {
    std::mutex mutex;
    std::condition_variable none;
    std::size_t count = 0;
    void add();
    void done();
  };

 private:
  JobDispatcher& dispatcher_;
  LinkCounters& counters_;
  const std::string token_;
  LiveStreams live_;
  std::unique_ptr<StreamWaker> waker_;  // last: its thread stops first
};

}  // namespace exocheck::coordinator
