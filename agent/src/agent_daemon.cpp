#include "agent_daemon.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "exocheck/agent/runner.hpp"
#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/result_events.hpp"
#include "proto/coordinator.grpc.pb.h"
#include "subject_check.hpp"

namespace exocheck::agent {
namespace {

using Stream = grpc::ClientReaderWriter<proto::AgentMessage, proto::CoordinatorMessage>;

/// One connection to the coordinator: this thread reads, slot threads run leases, a sender thread
/// writes result batches. Ends when the stream breaks; leases not yet run are simply dropped (the
/// coordinator issues them again).
class Connection {
 public:
  Connection(Stream& stream, std::uint32_t slots, RunnerOptions runner_options, SubjectCheck& check)
      : stream_(stream), slots_(slots), runner_options_(runner_options), check_(check) {}

  /// Serves until the stream breaks. True when the coordinator answered at all.
  bool serve() {
    std::vector<std::jthread> workers;
    for (std::uint32_t i = 0; i < slots_; ++i) workers.emplace_back([this] { run_leases(); });
    std::jthread sender([this] { send_results(); });
    proto::CoordinatorMessage message;
    bool answered = false;
    while (stream_.Read(&message)) {
      answered = true;
      if (message.has_offer()) consider(message.offer());
      if (message.has_leases()) queue(message.leases());
    }
    close();
    return answered;
  }

 private:
  void consider(const proto::JobOffer& offer) {
    proto::AgentMessage answer;
    auto& check = *answer.mutable_job_check();
    check.set_job_id(offer.job_id());
    const auto refusal = check_.refusal_reason(offer);
    check.set_accepted(!refusal);
    if (refusal) {
      check.set_reason(*refusal);
      spdlog::warn("refusing job {}: {}", offer.job_id(), *refusal);
    } else {
      spdlog::info("job {}: {}", offer.job_id(), offer.subject());
    }
    {
      std::lock_guard lock(mutex_);
      pending_.clear();  // leases of an earlier job are void
      job_.reset();
      if (!refusal) job_ = offer;
    }
    write(answer);
  }

  void queue(const proto::LeaseBatch& batch) {
    std::lock_guard lock(mutex_);
    for (const auto& lease : batch.leases()) {
      if (job_ && lease.job_id() == job_->job_id()) pending_.push_back(lease);
    }
    work_ready_.notify_all();
  }

  std::optional<RunSpec> take_lease(std::uint64_t& lease_id, std::uint64_t& job_id) {
    std::unique_lock lock(mutex_);
    work_ready_.wait(lock, [this] { return closed_ || !pending_.empty(); });
    if (closed_) return std::nullopt;
    const auto lease = std::move(pending_.front());
    pending_.pop_front();
    lease_id = lease.lease_id();
    job_id = lease.job_id();
    RunSpec spec;
    spec.binary = job_->subject();
    spec.args.assign(job_->args().begin(), job_->args().end());
    spec.request = lease.request();
    spec.timeout = std::chrono::milliseconds(job_->run_timeout_ms());
    spec.defer_prefix_events = true;  // assign_events_to_send() sends the steps after the prefix only
    return spec;
  }

  void run_leases() {
    // The runner, and its fork server, serve every job of this connection.
    Runner runner(runner_options_);
    RunReport report;  // every run's: its events are parsed into the last run's messages
    std::uint64_t lease_id = 0, job_id = 0, runner_job = 0;
    while (auto spec = take_lease(lease_id, job_id)) {
      if (job_id != runner_job) {
        runner.prepare(spec->binary, spec->args);  // a binary rebuilt since the last job needs a new server
        runner_job = job_id;
      }
      proto::LeaseResult result;
      result.set_lease_id(lease_id);
      try {
        runner.run(*spec, report);
        wire::assign_events_to_send(report.events, spec->request, report.result, *result.mutable_events());
        *result.mutable_result() = std::move(report.result);
        result.set_hello_seen(report.hello_seen);
      } catch (const std::exception& error) {
        // The runner promises not to throw; if it does, the lease's deadline re-issues it.
        spdlog::error("lease {}: runner failed: {}", lease_id, error.what());
        continue;
      }
      std::lock_guard lock(mutex_);
      *finished_.add_results() = std::move(result);
      results_ready_.notify_all();
    }
  }

  // Results that end close together travel in one batch.
  void send_results() {
    while (true) {
      proto::AgentMessage message;
      {
        std::unique_lock lock(mutex_);
        results_ready_.wait(lock, [this] { return closed_ || finished_.results_size() > 0; });
        if (closed_) return;
        message.mutable_results()->Swap(&finished_);
      }
      if (!write(message)) return;
    }
  }

  bool write(const proto::AgentMessage& message) {
    std::lock_guard lock(write_mutex_);
    return stream_.Write(message);
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    work_ready_.notify_all();
    results_ready_.notify_all();
  }

  Stream& stream_;
  const std::uint32_t slots_;
  const RunnerOptions runner_options_;
  SubjectCheck& check_;
  std::mutex write_mutex_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable results_ready_;
  std::optional<proto::JobOffer> job_;
  std::deque<proto::Lease> pending_;
  proto::ResultBatch finished_;
  bool closed_ = false;
};

}  // namespace

struct AgentDaemon::Impl {
  explicit Impl(AgentDaemonOptions options) : options(std::move(options)) {}

  /// One stream's life. True when the coordinator answered (so the back-off starts over).
  bool connect_once(proto::AgentService::Stub& stub) {
    grpc::ClientContext context;
    {
      std::lock_guard lock(mutex);
      if (stopping) return false;
      current = &context;
    }
    auto stream = stub.Connect(&context);
    proto::AgentMessage hello;
    hello.mutable_hello()->set_name(options.name);
    hello.mutable_hello()->set_slots(options.slots);
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    bool answered = false;
    if (stream->Write(hello))
      answered =
          Connection(*stream, options.slots, {.fork_server = options.fork_server, .in_place = options.in_place}, check)
              .serve();
    const auto status = stream->Finish();
    {
      std::lock_guard lock(mutex);
      current = nullptr;
    }
    if (!status.ok() && !stopping) spdlog::warn("coordinator {}: {}", options.coordinator, status.error_message());
    return answered;
  }

  /// Sleeps `delay` unless stop() comes first.
  void pause(std::chrono::milliseconds delay) {
    std::unique_lock lock(mutex);
    stopped.wait_for(lock, delay, [this] { return stopping; });
  }

  AgentDaemonOptions options;
  SubjectCheck check;  // outlives connections: the digests it keeps serve every job of this agent
  std::mutex mutex;
  std::condition_variable stopped;
  bool stopping = false;
  grpc::ClientContext* current = nullptr;
};

AgentDaemon::AgentDaemon(AgentDaemonOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

AgentDaemon::~AgentDaemon() = default;

void AgentDaemon::run() {
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(256 << 20);
  auto channel = grpc::CreateCustomChannel(impl_->options.coordinator, grpc::InsecureChannelCredentials(), arguments);
  auto stub = proto::AgentService::NewStub(channel);
  auto backoff = impl_->options.first_backoff;
  spdlog::info("agent {} ({} slots) serving coordinator {}", impl_->options.name, impl_->options.slots,
               impl_->options.coordinator);
  while (true) {
    {
      std::lock_guard lock(impl_->mutex);
      if (impl_->stopping) return;
    }
    if (impl_->connect_once(*stub)) backoff = impl_->options.first_backoff;
    impl_->pause(backoff);
    backoff = std::min(backoff * 2, impl_->options.max_backoff);
  }
}

void AgentDaemon::stop() {
  std::lock_guard lock(impl_->mutex);
  impl_->stopping = true;
  if (impl_->current != nullptr) impl_->current->TryCancel();
  impl_->stopped.notify_all();
}

}  // namespace exocheck::agent
