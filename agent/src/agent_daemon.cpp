#include "agent_daemon.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "exocheck/coordinator/exploration_settings.hpp"
#include "exocheck/coordinator/subtree_wire.hpp"
#include "exocheck/wire/frame.hpp"
#include "local_agent.hpp"
#include "proto/coordinator.grpc.pb.h"
#include "subject_check.hpp"
#include "subtree_sessions.hpp"

namespace exocheck::agent {
namespace {

using Stream = grpc::ClientReaderWriter<proto::AgentMessage, proto::CoordinatorMessage>;

// How often a connection reports its explorations' figures when nothing urgent happens.
constexpr std::chrono::milliseconds kReportInterval{100};

/// One connection to the coordinator: this thread reads offers and work, the local agent's slots
/// explore the subtrees leased, and a reporter thread writes what they did. Ends when the stream
/// breaks; the subtrees are dropped (the coordinator leases them again).
class Connection {
 public:
  Connection(Stream& stream, LocalAgent& local, SubjectCheck& check) : stream_(stream), local_(local), check_(check) {}

  /// Serves until the stream breaks. True when the coordinator answered at all.
  bool serve() {
    std::thread reporter([this] { report(); });
    proto::CoordinatorMessage message;
    bool answered = false;
    while (stream_.Read(&message)) {
      answered = true;
      if (message.has_offer()) consider(message.offer());
      if (message.has_work()) apply(message.work());
    }
    end_job();
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    nudged_.notify_all();
    reporter.join();
    return answered;
  }

 private:
  void consider(const proto::JobOffer& offer) {
    proto::AgentMessage answer;
    auto& check = *answer.mutable_job_check();
    check.set_job_id(offer.job_id());
    auto refusal = check_.refusal_reason(offer);
    std::optional<coordinator::JobSettings> settings;
    if (!refusal) {
      try {
        proto::SubmitRequest submitted;
        submitted.set_subject(offer.subject());
        *submitted.mutable_args() = offer.args();
        submitted.set_sha256(offer.sha256());
        *submitted.mutable_settings() = offer.settings();
        settings = coordinator::to_job_settings(submitted);
      } catch (const std::invalid_argument& error) {
        refusal = std::string("settings this agent cannot use: ") + error.what();
      }
    }
    check.set_accepted(!refusal);
    if (refusal) {
      check.set_reason(*refusal);
      spdlog::warn("refusing job {}: {}", offer.job_id(), *refusal);
    } else {
      spdlog::info("job {}: {}", offer.job_id(), offer.subject());
    }
    end_job();  // an earlier job's subtrees are void
    write(answer);
    if (!settings) return;
    // After the answer: a report about the job must not reach the coordinator before it.
    auto sessions = std::make_shared<SubtreeSessions>(
        settings->exploration, std::chrono::milliseconds(offer.run_timeout_ms()), [this] { nudge(); });
    {
      std::lock_guard lock(mutex_);
      sessions_ = sessions;
      job_id_ = offer.job_id();
    }
    local_.serve(*sessions);
  }

  void apply(const proto::Work& work) {
    std::shared_ptr<SubtreeSessions> sessions;
    {
      std::lock_guard lock(mutex_);
      if (work.job_id() != job_id_) return;
      sessions = sessions_;
    }
    if (!sessions) return;
    for (const auto& lease : work.leases()) sessions->add(lease.lease_id(), coordinator::from_wire(lease.subtree()));
    for (const auto& routed : work.backtracks()) {
      sessions->backtrack(routed.lease_id(), coordinator::from_wire(routed.request()));
    }
    for (const auto& finished : work.finished())
      sessions->given_away_finished(finished.lease_id(), finished.subtree_id());
    for (const auto lease : work.split()) sessions->split(lease);
    for (const auto lease : work.drop()) sessions->drop(lease);
    if (work.stop()) sessions->stop();
    local_.wake();
  }

  /// Closes the current job's subtrees and waits for the slots to bring their runs back.
  void end_job() {
    std::shared_ptr<SubtreeSessions> sessions;
    {
      std::lock_guard lock(mutex_);
      sessions = std::move(sessions_);
      sessions_.reset();
      job_id_ = 0;
    }
    if (!sessions) return;
    sessions->close();
    local_.wake();
    while (!local_.wait_for(kReportInterval)) {
    }
  }

  // Reports every kReportInterval while anything moved or a slot is hungry, and at once when the
  // sessions say something is urgent.
  void report() {
    std::uint64_t seen_reported = 0;
    std::uint64_t failure_reported_for = 0;  // the job whose launch failure was reported
    while (true) {
      std::shared_ptr<SubtreeSessions> sessions;
      proto::AgentMessage message;
      auto& report = *message.mutable_report();
      {
        std::unique_lock lock(mutex_);
        nudged_.wait_for(lock, kReportInterval, [this] { return nudge_pending_ || closed_; });
        nudge_pending_ = false;
        if (closed_) return;
        sessions = sessions_;
        report.set_job_id(job_id_);
      }
      if (!sessions) continue;
      // Outside mutex_: the local agent's lock is taken before the sessions' (and theirs before
      // mutex_, by nudge()).
      if (auto failure = local_.launch_error(); failure && failure_reported_for != report.job_id()) {
        report.set_launch_failure(*failure);
        failure_reported_for = report.job_id();
      }
      sessions->collect(report);
      const bool moved = report.splits_size() > 0 || report.backtracks_size() > 0 || report.progress_size() > 0 ||
                         report.bugs_size() > 0 || report.done_size() > 0 || !report.launch_failure().empty();
      if (!moved && !report.hungry() && report.leases_seen() == seen_reported) continue;
      seen_reported = report.leases_seen();
      if (!write(message)) return;
    }
  }

  /// Something urgent happened (SubtreeSessions calls this under its lock: the reporter never
  /// holds mutex_ while it calls the sessions).
  void nudge() {
    {
      std::lock_guard lock(mutex_);
      nudge_pending_ = true;
    }
    nudged_.notify_all();
  }

  bool write(const proto::AgentMessage& message) {
    std::lock_guard lock(write_mutex_);
    return stream_.Write(message);
  }

  Stream& stream_;
  LocalAgent& local_;
  SubjectCheck& check_;
  std::mutex write_mutex_;
  std::mutex mutex_;
  std::condition_variable nudged_;
  bool nudge_pending_ = false;
  std::shared_ptr<SubtreeSessions> sessions_;
  std::uint64_t job_id_ = 0;
  bool closed_ = false;
};

}  // namespace

struct AgentDaemon::Impl {
  explicit Impl(AgentDaemonOptions options)
      : options(std::move(options)),
        local({.workers = this->options.slots,
               .fork_server = this->options.fork_server,
               .in_place = this->options.in_place}) {}

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
    if (stream->Write(hello)) answered = Connection(*stream, local, check).serve();
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
  // The slots, with their runners and fork servers, serve every job of every connection.
  LocalAgent local;
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
