#include "agent_daemon.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "agent_metrics.hpp"
#include "exocheck/coordinator/exploration_settings.hpp"
#include "exocheck/link/grpc_link.hpp"
#include "exocheck/metrics/free_memory.hpp"
#include "exocheck/wire/frame.hpp"
#include "local_agent.hpp"
#include "proto/coordinator.grpc.pb.h"
#include "report_gate.hpp"
#include "subject_check.hpp"
#include "subtree_sessions.hpp"

namespace exocheck::agent {
namespace {

/// 16 random hex digits: an agent process's instance name.
std::string random_instance() {
  std::random_device device;
  std::uniform_int_distribution<std::uint64_t> draw;
  const auto value = (static_cast<std::uint64_t>(device()) << 32) ^ device() ^ draw(device);
  return fmt::format("{:016x}", value);
}

using Stream = grpc::ClientReaderWriter<proto::AgentMessage, proto::CoordinatorMessage>;

// How often a connection reports its explorations' figures when nothing urgent happens: the
// figures are for people watching; what other agents wait for goes at once.
constexpr std::chrono::milliseconds kReportInterval{1'000};

/// What an agent keeps across its streams (DESIGN.md, "Distribution"): the job whose subtrees it
/// explores, which go on while the coordinator is away, and its reports until the coordinator
/// acks them (a report lost with a stream is sent again on the next).
class HeldJob {
 public:
  /// The subtrees of `job` of coordinator `coordinator`, if they are the ones held.
  std::shared_ptr<SubtreeSessions> sessions_of(const std::string& coordinator, std::uint64_t job) {
    std::lock_guard lock(mutex_);
    return coordinator == coordinator_ && job == job_id_ ? sessions_ : nullptr;
  }

  /// Stops the sessions held, if they are `job`'s; true when they were.
  bool stop(std::uint64_t job) {
    std::shared_ptr<SubtreeSessions> sessions;
    {
      std::lock_guard lock(mutex_);
      if (job == job_id_) sessions = sessions_;
    }
    if (sessions) sessions->stop();
    return sessions != nullptr;
  }

  /// Holds `sessions` for `job` from now on; returns what was held before, to be closed.
  std::shared_ptr<SubtreeSessions> hold(const std::string& coordinator, std::uint64_t job,
                                        std::shared_ptr<SubtreeSessions> sessions) {
    std::lock_guard lock(mutex_);
    coordinator_ = coordinator;
    job_id_ = job;
    std::swap(sessions_, sessions);
    return sessions;
  }

  /// The hello of a new stream: what is held, and the leases done in reports not yet acked.
  void describe(proto::AgentHello& hello) {
    std::shared_ptr<SubtreeSessions> sessions;
    {
      std::lock_guard lock(mutex_);
      sessions = sessions_;
      hello.set_coordinator_instance(coordinator_);
      hello.set_job_id(sessions ? job_id_ : 0);
      for (const auto& kept : unacked_) {
        if (kept.job_id != job_id_) continue;
        for (const auto lease : kept.done) hello.add_held(lease);
      }
    }
    if (!sessions) return;
    for (const auto lease : sessions->leases()) hello.add_held(lease);
    hello.set_leases_seen(sessions->leases_seen());
    hello.set_backtracks_seen(sessions->backtracks_seen());
  }

  /// Numbers `message`'s report and keeps it until acked, in its wire form: as a message its
  /// backtrack requests take about three times as much (a string object per name).
  void keep(proto::AgentMessage& message) {
    Kept kept;
    {
      std::lock_guard lock(mutex_);
      message.mutable_report()->set_seq(next_seq_++);
    }
    kept.seq = message.report().seq();
    kept.job_id = message.report().job_id();
    for (const auto& done : message.report().done()) kept.done.push_back(done.lease_id());
    kept.wire = message.SerializeAsString();  // outside the lock, which nudge() takes
    std::lock_guard lock(mutex_);
    if (kept.seq > acked_) unacked_.push_back(std::move(kept));
  }

  /// The reports not acked yet, in their wire form, oldest first.
  std::vector<std::string> unacked() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> wires;
    for (const auto& kept : unacked_) wires.push_back(kept.wire);
    return wires;
  }

  void acked(std::uint64_t seq) {
    std::lock_guard lock(mutex_);
    acked_ = std::max(acked_, seq);
    while (!unacked_.empty() && unacked_.front().seq <= seq) unacked_.pop_front();
  }

  /// Wakes the reporter (SubtreeSessions calls this under its lock: nothing here calls the
  /// sessions while holding mutex_).
  void nudge() {
    {
      std::lock_guard lock(mutex_);
      nudged_ = true;
    }
    wake_.notify_all();
  }

  /// Waits for a nudge, `closed`, or `timeout`.
  void wait(std::chrono::milliseconds timeout, const bool& closed) {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, timeout, [&] { return nudged_ || closed; });
    nudged_ = false;
  }

  /// Sets `closed` under the lock the reporter waits with, and wakes it.
  void close(bool& closed) {
    {
      std::lock_guard lock(mutex_);
      closed = true;
    }
    wake_.notify_all();
  }

 private:
  /// A report sent, not acked yet.
  struct Kept {
    std::uint64_t seq = 0;
    std::uint64_t job_id = 0;
    std::vector<std::uint64_t> done;  ///< the leases it ends
    std::string wire;                 ///< the AgentMessage, serialized
  };

  std::mutex mutex_;
  std::condition_variable wake_;
  bool nudged_ = false;
  std::string coordinator_;
  std::uint64_t job_id_ = 0;
  std::shared_ptr<SubtreeSessions> sessions_;
  std::deque<Kept> unacked_;
  std::uint64_t next_seq_ = 1;
  std::uint64_t acked_ = 0;  ///< the latest report acked
};

/// Closes `sessions` (a job over, or another taken up, or the agent stopping) and waits for the
/// slots to bring their runs back: those in flight are killed, their subtrees unexplored.
void close_sessions(const std::shared_ptr<SubtreeSessions>& sessions, LocalAgent& local) {
  if (!sessions) return;
  sessions->close();
  local.stop();
  local.wake();
  while (!local.wait_for(kReportInterval)) {
  }
}

/// One connection to the coordinator: this thread reads offers and work, the local agent's slots
/// explore the subtrees held, and a reporter thread writes what they did. Ends when the stream
/// breaks; the subtrees go on being explored, for the next connection to report.
class Connection {
 public:
  Connection(Stream& stream, LocalAgent& local, SubjectCheck& check, HeldJob& held)
      : stream_(stream), local_(local), check_(check), held_(held) {}

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
    held_.close(closed_);
    reporter.join();
    return answered;
  }

 private:
  void consider(const proto::JobOffer& offer) {
    proto::AgentMessage answer;
    auto& check = *answer.mutable_job_check();
    check.set_job_id(offer.job_id());
    auto refusal = check_.refusal_reason(offer);
    std::optional<coordinator::ExplorationOptions> options;
    if (!refusal) {
      try {
        options = coordinator::options_of(offer);
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
    auto sessions = held_.sessions_of(offer.coordinator_instance(), offer.job_id());
    if (!sessions || refusal) {
      // Another job, or this one's subtrees no more: what was held is void.
      close_sessions(held_.hold(offer.coordinator_instance(), 0, nullptr), local_);
      sessions.reset();
    }
    write(answer);
    if (!options) return;
    // After the answer: the coordinator takes no report about the job before it.
    if (!sessions) {
      sessions = std::make_shared<SubtreeSessions>(*options, [held = &held_] { held->nudge(); });
      held_.hold(offer.coordinator_instance(), offer.job_id(), sessions);
      local_.serve(*sessions);
    }
    {
      std::lock_guard lock(mutex_);
      sessions_ = sessions;
      job_id_ = offer.job_id();
    }
    held_.nudge();  // reports kept from an earlier stream go out now
  }

  void apply(const proto::Work& work) {
    if (work.acked_report() != 0) held_.acked(work.acked_report());
    std::shared_ptr<SubtreeSessions> sessions;
    {
      std::lock_guard lock(mutex_);
      sessions = sessions_;
      if (work.job_id() != job_id_) sessions.reset();
    }
    if (!sessions) {
      // The coordinator ends a job this agent still explores (it ended while the agent was away).
      if (work.stop() && held_.stop(work.job_id())) local_.stop();
      return;
    }
    // A job stopped (its time limit, a cancel) ends its runs in flight too: the coordinator
    // waits for every lease's end before the job's.
    if (work.stop()) local_.stop();
    sessions->apply(work);
    local_.wake();
  }

  // Reports every kReportInterval while anything moved, and at once when the sessions say something
  // is urgent (a slot found nothing to run, a split was answered, a subtree ended). Reports kept
  // from an earlier stream go first.
  void report() {
    ReportGate gate;
    std::uint64_t failure_reported_for = 0;  // the job whose launch failure was reported
    bool resent = false;
    while (true) {
      held_.wait(kReportInterval, closed_);
      std::shared_ptr<SubtreeSessions> sessions;
      proto::AgentMessage message;
      auto& report = *message.mutable_report();
      {
        std::lock_guard lock(mutex_);
        if (closed_) return;
        sessions = sessions_;
        report.set_job_id(job_id_);
      }
      if (!sessions) continue;  // nothing accepted on this stream yet
      if (!resent) {
        for (const auto& wire : held_.unacked()) {
          proto::AgentMessage kept;
          if (!kept.ParseFromString(wire) || !write(kept)) return;
        }
        resent = true;
      }
      // The local agent's lock is taken before the sessions' (and theirs before HeldJob's).
      if (auto failure = local_.launch_error(); failure && failure_reported_for != report.job_id()) {
        report.set_launch_failure(*failure);
        failure_reported_for = report.job_id();
      }
      sessions->collect(report);
      if (!gate.worth_sending(report)) continue;
      held_.keep(message);
      const bool written = write(message);
      message = proto::AgentMessage{};  // freed before the release below (Clear() keeps what it held)
      sessions->drop_ended();
      // What this report and the sessions ended with it freed, and what other threads freed since
      // (a Work message of routed requests, a result's analysis), goes back when it is much.
      free_memory_.now_and_then();
      if (!written) return;
    }
  }

  bool write(const proto::AgentMessage& message) {
    std::lock_guard lock(write_mutex_);
    return stream_.Write(message);
  }

  Stream& stream_;
  LocalAgent& local_;
  SubjectCheck& check_;
  HeldJob& held_;
  std::mutex write_mutex_;
  std::mutex mutex_;
  std::shared_ptr<SubtreeSessions> sessions_;  ///< of the job accepted on this stream
  std::uint64_t job_id_ = 0;
  bool closed_ = false;                     ///< written under HeldJob's lock (close), read under it or after
  metrics::FreeMemoryRelease free_memory_;  ///< the reporter's
};

}  // namespace

struct AgentDaemon::Impl {
  explicit Impl(AgentDaemonOptions options)
      : options(std::move(options)),
        instance(random_instance()),
        local({.workers = this->options.slots,
               .fork_server = this->options.fork_server,
               .in_place = this->options.in_place}),
        check(this->options.subjects) {}

  /// One stream's life. True when the coordinator answered (so the back-off starts over).
  bool connect_once(proto::AgentService::Stub& stub) {
    grpc::ClientContext context;
    {
      std::lock_guard lock(mutex);
      if (stopping) return false;
      current = &context;
    }
    link::present_token(context, options.link);
    auto stream = stub.Connect(&context);
    proto::AgentMessage hello;
    hello.mutable_hello()->set_name(options.name);
    hello.mutable_hello()->set_slots(options.slots);
    hello.mutable_hello()->set_protocol_version(wire::kProtocolVersion);
    hello.mutable_hello()->set_instance(instance);
    held.describe(*hello.mutable_hello());
    bool answered = false;
    if (stream->Write(hello)) answered = Connection(*stream, local, check, held).serve();
    const auto status = stream->Finish();
    {
      std::lock_guard lock(mutex);
      current = nullptr;
    }
    if (status.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
      // Trying again with the same token cannot help: the one who started the agent must know.
      spdlog::error("coordinator {} refused this agent: {}", options.coordinator, status.error_message());
      refused = true;
    } else if (!status.ok() && !stopping) {
      spdlog::warn("coordinator {}: {}", options.coordinator, status.error_message());
    }
    return answered;
  }

  /// Sleeps `delay` unless stop() comes first.
  void pause(std::chrono::milliseconds delay) {
    std::unique_lock lock(mutex);
    stopped.wait_for(lock, delay, [this] { return stopping; });
  }

  AgentDaemonOptions options;
  const std::string instance;  ///< this process's name for the coordinator, the same on every stream
  HeldJob held;                ///< outlives the slots, which explore its sessions to the end
  // The slots, with their runners and fork servers, serve every job of every connection.
  LocalAgent local;
  SubjectCheck check;  // outlives connections: the digests it keeps serve every job of this agent
  std::mutex mutex;
  std::condition_variable stopped;
  bool stopping = false;
  grpc::ClientContext* current = nullptr;
  bool refused = false;  ///< the coordinator refused this agent's token
};

AgentDaemon::AgentDaemon(AgentDaemonOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

AgentDaemon::~AgentDaemon() = default;

int AgentDaemon::run() {
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(256 << 20);
  // The channel reconnects on a backoff of its own (1 s, growing 1.6 times up to 2 minutes) and
  // fails calls at once until then, whatever our own pauses: it follows ours instead. (Not
  // GRPC_ARG_MIN_RECONNECT_BACKOFF_MS: that is how long one attempt may take, TLS handshake
  // included, and keeps gRPC's 20 s.)
  arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, static_cast<int>(impl_->options.first_backoff.count()));
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, static_cast<int>(impl_->options.max_backoff.count()));
  auto channel =
      grpc::CreateCustomChannel(impl_->options.coordinator, link::channel_credentials(impl_->options.link), arguments);
  auto stub = proto::AgentService::NewStub(channel);
  auto backoff = impl_->options.first_backoff;
  spdlog::info("agent {} ({} slots) serving coordinator {}; runs {}", impl_->options.name, impl_->options.slots,
               impl_->options.coordinator, impl_->options.subjects.description());
  while (true) {
    {
      std::lock_guard lock(impl_->mutex);
      if (impl_->stopping) break;
    }
    if (impl_->connect_once(*stub)) backoff = impl_->options.first_backoff;
    if (impl_->refused) break;
    impl_->pause(backoff);
    backoff = std::min(backoff * 2, impl_->options.max_backoff);
  }
  close_sessions(impl_->held.hold({}, 0, nullptr), impl_->local);
  return impl_->refused ? 2 : 0;
}

std::string AgentDaemon::metrics() const {
  bool connected = false;
  {
    std::lock_guard lock(impl_->mutex);
    connected = impl_->current != nullptr;
  }
  return agent_metrics(impl_->local.tally(), impl_->options.slots, connected);
}

void AgentDaemon::stop() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
    if (impl_->current != nullptr) impl_->current->TryCancel();
    impl_->stopped.notify_all();
  }
  // The subtrees held end now, their runs killed: the stream's reporter may wait for a result's
  // analysis, which this makes give up, and run() for the slots.
  impl_->local.stop();
}

}  // namespace exocheck::agent
