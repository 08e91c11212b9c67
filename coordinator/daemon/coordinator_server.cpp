#include "coordinator_server.hpp"

#include <atomic>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <google/protobuf/arena.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "exocheck/link/grpc_link.hpp"
#include "proto/coordinator.grpc.pb.h"

namespace exocheck::coordinator {
namespace {

// Watch sends at most this many updates a second (the CLI redraws at most 4 times a second), and
// the final state as soon as it is reached: a small job's client then waits for its job, not for
// the next update.
constexpr std::chrono::milliseconds kWatchInterval{250};
constexpr std::chrono::milliseconds kTickInterval{100};
constexpr std::chrono::milliseconds kIdleWait{100};
// An agent's writer is woken for its work (JobDispatcher::wait_for_work) and when its stream ends
// (the reader sees a cancelled call end too); this is only a bound on a wait nobody ended.
constexpr std::chrono::milliseconds kWriterIdleWait{10'000};

bool is_final(proto::JobState state) {
  return state != proto::JOB_QUEUED && state != proto::JOB_RUNNING;
}

/// One agent's stream: this thread reads reports, and writes the work they make; a writer thread
/// writes offers, and work that other agents' reports, ticks or a new job made.
class AgentStream {
 public:
  using Stream = grpc::ServerReaderWriter<proto::CoordinatorMessage, proto::AgentMessage>;

  AgentStream(JobDispatcher& dispatcher, LinkCounters& counters, grpc::ServerContext& context, Stream& stream)
      : dispatcher_(dispatcher), counters_(counters), context_(context), stream_(stream) {}

  grpc::Status serve() {
    proto::AgentMessage message;
    if (!stream_.Read(&message) || !message.has_hello()) {
      return {grpc::StatusCode::INVALID_ARGUMENT, "an agent stream must open with AgentHello"};
    }
    const auto& hello = message.hello();
    agent_id_ = dispatcher_.attach_agent(hello);
    spdlog::info("agent {} is {} at {}", agent_id_, hello.name(), context_.peer());
    std::thread writer([this] { write_work(); });
    // Reports are parsed into an arena, reset after each one: a report with class keys or a bug's
    // trace is thousands of small objects.
    google::protobuf::ArenaOptions options;
    options.start_block_size = 64 << 10;
    options.max_block_size = 4 << 20;
    google::protobuf::Arena arena(options);
    while (true) {
      auto* batch = google::protobuf::Arena::CreateMessage<proto::AgentMessage>(&arena);
      if (!stream_.Read(batch)) break;
      counters_.agent_messages.fetch_add(1, std::memory_order_relaxed);
      counters_.agent_bytes.fetch_add(batch->ByteSizeLong(), std::memory_order_relaxed);
      read_one(*batch);
      arena.Reset();
    }
    done_ = true;
    dispatcher_.wake_writer(agent_id_);
    writer.join();
    dispatcher_.detach_agent(agent_id_);
    return grpc::Status::OK;
  }

 private:
  void read_one(const proto::AgentMessage& message) {
    bool to_send = false;
    if (message.has_job_check()) to_send = dispatcher_.record_check(agent_id_, message.job_check());
    if (message.has_report()) {
      try {
        to_send = dispatcher_.accept_report(agent_id_, message.report()) || to_send;
      } catch (const std::invalid_argument& error) {
        spdlog::error("agent {}: a report the coordinator cannot read: {}", agent_id_, error.what());
        to_send = true;
      }
    }
    // The work this report made (subtrees for a hungry agent, splits asked) goes out from this
    // thread, at once; other agents' writers are woken by the dispatcher's change. A report that
    // made nothing but its ack is not answered: the ack rides with the next work.
    if (to_send) write_pending_work();
  }

  // Not ServerContext::IsCancelled() at each turn: in a synchronous server it polls the call's
  // completion queue, which with hundreds of agents cost more than the writing. A cancelled call
  // ends the reader's Read, which ends this loop (done_).
  void write_work() {
    while (!done_) {
      const auto seen = dispatcher_.work_generation(agent_id_);
      const auto written = write_pending_work();
      if (written == Written::broken) return;
      if (written == Written::nothing) dispatcher_.wait_for_work(agent_id_, seen, kWriterIdleWait);
    }
  }

  enum class Written { nothing, sent, broken };

  /// Writes what the dispatcher has for this agent now. Both threads write: the lock keeps an offer
  /// ahead of the leases of its job.
  Written write_pending_work() {
    std::lock_guard lock(write_mutex_);
    auto work = dispatcher_.work_for(agent_id_);
    if (!work.offer && !work.work) return Written::nothing;
    proto::CoordinatorMessage message;
    if (work.offer) {
      *message.mutable_offer() = std::move(*work.offer);
    } else {
      *message.mutable_work() = std::move(*work.work);
    }
    // A failed write means the stream broke: the reader sees it too and detaches the agent,
    // whose subtrees wait again.
    return stream_.Write(message) ? Written::sent : Written::broken;
  }

  JobDispatcher& dispatcher_;
  LinkCounters& counters_;
  grpc::ServerContext& context_;
  Stream& stream_;
  std::uint64_t agent_id_ = 0;
  std::atomic<bool> done_ = false;
  std::mutex write_mutex_;
};

class AgentServiceImpl final : public proto::AgentService::Service {
 public:
  AgentServiceImpl(JobDispatcher& dispatcher, LinkCounters& counters, std::string token)
      : dispatcher_(dispatcher), counters_(counters), token_(std::move(token)) {}

  grpc::Status Connect(grpc::ServerContext* context,
                       grpc::ServerReaderWriter<proto::CoordinatorMessage, proto::AgentMessage>* stream) override {
    if (auto refused = link::token_refusal(*context, token_)) {
      counters_.refused_calls.fetch_add(1, std::memory_order_relaxed);
      spdlog::warn("refused an agent from {}: {}", context->peer(), refused->error_message());
      return *refused;
    }
    return AgentStream(dispatcher_, counters_, *context, *stream).serve();
  }

 private:
  JobDispatcher& dispatcher_;
  LinkCounters& counters_;
  const std::string token_;
};

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
    while (!stop.stop_requested()) {
      dispatcher.tick();
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
  builder.RegisterService(&impl_->agents);
  builder.RegisterService(&impl_->clients);
  builder.SetMaxReceiveMessageSize(256 << 20);
  impl_->server = builder.BuildAndStart();
  if (!impl_->server || impl_->port == 0) throw std::runtime_error("cannot listen on " + address);
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
    impl_->ticker.request_stop();
  });
}

}  // namespace exocheck::coordinator
