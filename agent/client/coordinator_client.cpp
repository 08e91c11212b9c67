#include "coordinator_client.hpp"

#include <thread>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "exocheck/link/grpc_link.hpp"
#include "proto/coordinator.grpc.pb.h"

namespace exocheck::agent {

struct CoordinatorClient::Impl {
  std::string address;
  link::LinkSettings link;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<proto::ClientService::Stub> stub;

  /// A call's context, with the token.
  void prepare(grpc::ClientContext& context) const { link::present_token(context, link); }
  /// A read, asked again while the coordinator is unavailable, within a bound: a coordinator
  /// restarting (killed as a job ended, say, right after the watch saw its end) is waited for
  /// rather than failing at once, whether the call found the connection broken (wait_for_ready) or
  /// reached the coordinator as it died ("Socket closed").
  template <typename Call>
  grpc::Status read(const Call& call) const {
    const auto until = std::chrono::system_clock::now() + kReadWait;
    for (;;) {
      grpc::ClientContext context;
      prepare(context);
      context.set_wait_for_ready(true);
      context.set_deadline(until);
      const grpc::Status status = call(context);
      if (status.error_code() != grpc::StatusCode::UNAVAILABLE || std::chrono::system_clock::now() >= until) {
        return status;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  static constexpr std::chrono::seconds kReadWait{30};

  /// Throws CoordinatorError for a failed call, naming what was asked.
  void check(const grpc::Status& status, const std::string& what) const {
    if (status.ok()) return;
    throw CoordinatorError("coordinator at " + address + ": " + what + ": " + status.error_message());
  }
};

CoordinatorClient::CoordinatorClient(const std::string& address, std::chrono::milliseconds timeout,
                                     const link::LinkSettings& link)
    : impl_(std::make_unique<Impl>()) {
  impl_->address = address;
  impl_->link = link;
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(256 << 20);
  impl_->channel = grpc::CreateCustomChannel(address, link::channel_credentials(link), arguments);
  if (!impl_->channel->WaitForConnected(std::chrono::system_clock::now() + timeout)) {
    // A failed TLS handshake looks the same from here as a coordinator that is not there.
    throw CoordinatorError("coordinator at " + address + " does not answer (waited " + std::to_string(timeout.count()) +
                           " ms)" +
                           (link.tls() ? "; or the TLS handshake failed: does --tls-ca name the CA that signed the "
                                         "coordinator's certificate, and does the coordinator accept this one?"
                                       : ""));
  }
  impl_->stub = proto::ClientService::NewStub(impl_->channel);
}

CoordinatorClient::~CoordinatorClient() = default;

std::uint64_t CoordinatorClient::submit(const proto::SubmitRequest& request) {
  grpc::ClientContext context;
  impl_->prepare(context);
  proto::SubmitReply reply;
  impl_->check(impl_->stub->Submit(&context, request, &reply), "submit refused");
  return reply.job_id();
}

proto::JobProgress CoordinatorClient::watch(std::uint64_t job_id,
                                            const std::function<void(const proto::JobProgress&)>& on_update,
                                            std::chrono::milliseconds reconnect_for) {
  using Clock = std::chrono::steady_clock;
  bool away = false;  // since away_since
  Clock::time_point away_since;
  auto backoff = std::chrono::milliseconds(100);
  while (true) {
    grpc::ClientContext context;
    impl_->prepare(context);
    proto::JobRef job;
    job.set_job_id(job_id);
    auto reader = impl_->stub->Watch(&context, job);
    proto::JobProgress progress;
    bool final_seen = false;
    while (reader->Read(&progress)) {
      on_update(progress);
      away = false;
      final_seen = progress.state() != proto::JOB_QUEUED && progress.state() != proto::JOB_RUNNING;
    }
    const auto status = reader->Finish();
    if (final_seen) return progress;
    if (status.error_code() == grpc::StatusCode::NOT_FOUND && away) {
      throw CoordinatorError("coordinator at " + impl_->address + " came back without job " + std::to_string(job_id) +
                             " (a coordinator keeps its jobs across restarts with --state-dir)");
    }
    if (status.error_code() != grpc::StatusCode::UNAVAILABLE && !status.ok()) {
      impl_->check(status, "watching job " + std::to_string(job_id));
    }
    // The coordinator went away (or closed the stream early): watch again until it is back.
    const auto now = Clock::now();
    if (!away) {
      away = true;
      away_since = now;
      spdlog::warn("coordinator at {} went away ({}); watching job {} again as soon as it is back", impl_->address,
                   status.ok() ? "stream closed" : status.error_message(), job_id);
    }
    if (now - away_since >= reconnect_for) {
      throw CoordinatorError("coordinator at " + impl_->address + ": gone for " +
                             std::to_string(reconnect_for.count() / 1000) + " s while watching job " +
                             std::to_string(job_id));
    }
    std::this_thread::sleep_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::milliseconds(2'000));
  }
}

std::vector<proto::BugSummary> CoordinatorClient::bugs(std::uint64_t job_id) {
  proto::JobRef job;
  job.set_job_id(job_id);
  proto::BugList list;
  impl_->check(impl_->read([&](grpc::ClientContext& context) { return impl_->stub->ListBugs(&context, job, &list); }),
               "listing bugs");
  return {list.bugs().begin(), list.bugs().end()};
}

proto::TraceFile CoordinatorClient::trace(std::uint64_t job_id, std::uint64_t bug_number, bool reference) {
  proto::BugRef ref;
  ref.set_job_id(job_id);
  ref.set_number(bug_number);
  ref.set_reference(reference);
  proto::TraceFile trace;
  impl_->check(
      impl_->read([&](grpc::ClientContext& context) { return impl_->stub->GetBugTrace(&context, ref, &trace); }),
      "fetching bug " + std::to_string(bug_number));
  return trace;
}

proto::NearestPassing CoordinatorClient::nearest_passing(std::uint64_t job_id) {
  proto::JobRef job;
  job.set_job_id(job_id);
  proto::NearestPassing nearest;
  impl_->check(impl_->read([&](grpc::ClientContext& context) {
    return impl_->stub->GetNearestPassing(&context, job, &nearest);
  }),
               "fetching the nearest passing run");
  return nearest;
}

bool CoordinatorClient::cancel(std::uint64_t job_id) {
  grpc::ClientContext context;
  impl_->prepare(context);
  proto::JobRef job;
  job.set_job_id(job_id);
  proto::CancelReply reply;
  impl_->check(impl_->stub->Cancel(&context, job, &reply), "cancelling job " + std::to_string(job_id));
  return reply.found();
}

proto::CoordinatorStatus CoordinatorClient::status() {
  grpc::ClientContext context;
  impl_->prepare(context);
  proto::CoordinatorStatus status;
  impl_->check(impl_->stub->Status(&context, proto::StatusRequest{}, &status), "status");
  return status;
}

}  // namespace exocheck::agent
