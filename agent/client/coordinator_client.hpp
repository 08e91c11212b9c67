#pragma once
// A client of the coordinator's ClientService (coordinator.proto): submit an exploration, follow
// its progress, fetch its bugs and their traces, cancel it. gRPC stays out of this header.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exocheck/link/link_settings.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::agent {

/// The coordinator did not answer, refused a request, or the connection broke; what() is one
/// line naming the address and the reason.
class CoordinatorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CoordinatorClient {
 public:
  /// Connects to `address` over the link `link` secures; throws CoordinatorError when it does not
  /// answer within `timeout`.
  CoordinatorClient(const std::string& address, std::chrono::milliseconds timeout, const link::LinkSettings& link = {});
  ~CoordinatorClient();
  CoordinatorClient(const CoordinatorClient&) = delete;
  CoordinatorClient& operator=(const CoordinatorClient&) = delete;

  /// Queues an exploration; returns its job id. Bad settings come back as CoordinatorError.
  std::uint64_t submit(const proto::SubmitRequest& request);
  /// Calls `on_update` for each progress update until the job's state is final; returns that
  /// final update. When the coordinator goes away (killed, restarted), watches again with back-off
  /// for up to `reconnect_for`; throws CoordinatorError when it does not come back in time, or
  /// comes back without the job (a coordinator without --state-dir).
  proto::JobProgress watch(std::uint64_t job_id, const std::function<void(const proto::JobProgress&)>& on_update,
                           std::chrono::milliseconds reconnect_for = std::chrono::seconds(60));
  /// The job's bugs, in the order found.
  std::vector<proto::BugSummary> bugs(std::uint64_t job_id);
  /// One bug's replayable trace; with `reference`, that of the earlier path a RUN_NONDETERMINISTIC
  /// bug differs from.
  proto::TraceFile trace(std::uint64_t job_id, std::uint64_t bug_number, bool reference = false);
  /// explore --from: the job's completed path nearest its failure (found false: none).
  proto::NearestPassing nearest_passing(std::uint64_t job_id);
  /// Stops the job; false when it was unknown or already over.
  bool cancel(std::uint64_t job_id);
  /// Every job's progress and the agents attached.
  proto::CoordinatorStatus status();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace exocheck::agent
