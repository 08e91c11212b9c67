#include "coordinator_server.hpp"

#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "agent_service.hpp"
#include "exocheck/link/grpc_link.hpp"
#include "exocheck/metrics/free_memory.hpp"
#include "proto/coordinator.grpc.pb.h"

namespace exocheck::coordinator {
namespace {

// Watch sends at most this many updates a second (the CLI redraws at most 4 times a second), and
// the final state as soon as it is reached: a small job's client then waits for its job, not for
// the next update.
constexpr std::chrono::milliseconds kWatchInterval{250};
constexpr std::chrono::milliseconds kTickInterval{100};
constexpr std::chrono::milliseconds kIdleWait{100};

bool is_final(proto::JobState state) {
  return state != proto::JOB_QUEUED && state != proto::JOB_RUNNING;
}

grpc::Status job_not_found(std::uint64_t job_id) {
  return {grpc::StatusCode::NOT_FOUND, "no job " + std::to_string(job_id) + " on this coordinator"};
}

class ClientServiceImpl final : public proto::ClientService::Service {
 public:
  ClientServiceImpl(JobDispatcher& dispatcher, LinkCounters& counters, std::string token)
      : dispatcher_(dispatcher), counters_(counters), token_(std::move(token)) {}

  grpc::Status Submit(grpc::ServerContext* context, const proto::SubmitRequest* request,
                      proto::SubmitReply* reply) override {
    if (auto refused = refusal(*context)) return *refused;
    try {
      reply->set_job_id(dispatcher_.submit(*request));
      return grpc::Status::OK;
    } catch (const std::invalid_argument& error) {
      return {grpc::StatusCode::INVALID_ARGUMENT, error.what()};
    }
  }

  grpc::Status Watch(grpc::ServerContext* context, const proto::JobRef* job,
                     grpc::ServerWriter<proto::JobProgress>* writer) override {
    if (auto refused = refusal(*context)) return *refused;
    while (!context->IsCancelled()) {
      const auto seen = dispatcher_.generation();
      const auto progress = dispatcher_.progress(job->job_id());
      if (!progress) return job_not_found(job->job_id());
      if (!writer->Write(*progress)) return grpc::Status::OK;
      if (is_final(progress->state())) return grpc::Status::OK;
      dispatcher_.wait_until_over(job->job_id(), std::chrono::steady_clock::now() + kWatchInterval);
      dispatcher_.wait_for_change(seen, kIdleWait);
    }
    return grpc::Status::CANCELLED;
  }

  grpc::Status ListBugs(grpc::ServerContext* context, const proto::JobRef* job, proto::BugList* list) override {
    if (auto refused = refusal(*context)) return *refused;
    if (!dispatcher_.progress(job->job_id())) return job_not_found(job->job_id());
    for (const auto& bug : dispatcher_.bugs(job->job_id())) {
      auto& summary = *list->add_bugs();
      summary.set_number(bug.number);
      summary.set_status(bug.status);
      summary.set_detail(bug.detail);
      summary.set_has_reference(bug.reference.has_value());
      summary.set_actor_type(bug.signature.actor_type);
      summary.set_message_type(bug.signature.message_type);
      summary.set_what(bug.signature.what);
      summary.set_paths(bug.paths);
      summary.set_classes(bug.classes);
      summary.set_has_trace(bug.has_trace());
      summary.set_found_by(bug.found_by);
    }
    return grpc::Status::OK;
  }

  grpc::Status GetBugTrace(grpc::ServerContext* context, const proto::BugRef* ref, proto::TraceFile* trace) override {
    if (auto refused = refusal(*context)) return *refused;
    for (const auto& bug : dispatcher_.bugs(ref->job_id())) {
      if (bug.number != ref->number() || !bug.has_trace() || (ref->reference() && !bug.reference)) continue;
      *trace = ref->reference() ? *bug.reference : bug.trace;
      return grpc::Status::OK;
    }
    return {grpc::StatusCode::NOT_FOUND, std::string(ref->reference() ? "no reference trace for bug " : "no bug ") +
                                             std::to_string(ref->number()) + " in job " +
                                             std::to_string(ref->job_id())};
  }

  grpc::Status GetNearestPassing(grpc::ServerContext* context, const proto::JobRef* job,
                                 proto::NearestPassing* nearest) override {
    if (auto refused = refusal(*context)) return *refused;
    if (!dispatcher_.progress(job->job_id())) return job_not_found(job->job_id());
    if (auto kept = dispatcher_.nearest_passing(job->job_id())) {
      nearest->set_found(true);
      *nearest->mutable_trace() = std::move(kept->first);
      nearest->set_shared_deliveries(kept->second);
    }
    return grpc::Status::OK;
  }

  grpc::Status Status(grpc::ServerContext* context, const proto::StatusRequest*,
                      proto::CoordinatorStatus* status) override {
    if (auto refused = refusal(*context)) return *refused;
    auto figures = dispatcher_.figures();
    status->set_version(EXOCHECK_VERSION);
    for (auto& job : figures.jobs) *status->add_jobs() = std::move(job);
    for (auto& agent : figures.agent_list) *status->add_agents() = std::move(agent);
    return grpc::Status::OK;
  }

  grpc::Status Cancel(grpc::ServerContext* context, const proto::JobRef* job, proto::CancelReply* reply) override {
    if (auto refused = refusal(*context)) return *refused;
    reply->set_found(dispatcher_.cancel(job->job_id()));
    return grpc::Status::OK;
  }

 private:
  std::optional<grpc::Status> refusal(const grpc::ServerContext& context) const {
    counters_.client_calls.fetch_add(1, std::memory_order_relaxed);
    auto refused = link::token_refusal(context, token_);
    if (refused) {
      counters_.refused_calls.fetch_add(1, std::memory_order_relaxed);
      spdlog::warn("refused a client from {}: {}", context.peer(), refused->error_message());
    }
    return refused;
  }

  JobDispatcher& dispatcher_;
  LinkCounters& counters_;
  const std::string token_;
};

}  // namespace

struct CoordinatorServer::Impl {
  Impl(JobDispatcher& dispatcher, const std::string& token)
      : dispatcher(dispatcher), agents(dispatcher, counters, token), clients(dispatcher, counters, token) {}

  void tick_until_stopped(const std::stop_token& stop) {
    metrics::FreeMemoryRelease free_memory;
    while (!stop.stop_requested()) {
      dispatcher.tick();
      free_memory.now_and_then();
      std::this_thread::sleep_for(kTickInterval);
    }
  }

  JobDispatcher& dispatcher;
  LinkCounters counters;  // before the services, which count into it
  AgentServiceImpl agents;
  ClientServiceImpl clients;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  std::jthread ticker;
  std::once_flag shut_down;
};

CoordinatorServer::CoordinatorServer(const std::string& address, JobDispatcher& dispatcher,
                                     const link::LinkSettings& link)
    : impl_(std::make_unique<Impl>(dispatcher, link.token)) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, link::server_credentials(link), &impl_->port);
  impl_->agents.add_to(builder);
  builder.RegisterService(&impl_->clients);
  builder.SetMaxReceiveMessageSize(256 << 20);
  impl_->server = builder.BuildAndStart();
  if (!impl_->server || impl_->port == 0) throw std::runtime_error("cannot listen on " + address);
  impl_->agents.start();
  impl_->ticker = std::jthread([impl = impl_.get()](std::stop_token stop) { impl->tick_until_stopped(stop); });
}

CoordinatorServer::~CoordinatorServer() {
  shutdown();
}

int CoordinatorServer::port() const {
  return impl_->port;
}

const LinkCounters& CoordinatorServer::counters() const {
  return impl_->counters;
}

void CoordinatorServer::wait() {
  impl_->server->Wait();
}

void CoordinatorServer::shutdown() {
  std::call_once(impl_->shut_down, [this] {
    impl_->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    impl_->agents.stop();  // after the server's shutdown, as gRPC wants of its queues
    impl_->ticker.request_stop();
  });
}

}  // namespace exocheck::coordinator
