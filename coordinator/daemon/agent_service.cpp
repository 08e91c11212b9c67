#include "agent_service.hpp"

#include <stdexcept>
#include <stop_token>
#include <thread>
#include <utility>
#include <vector>

#include <google/protobuf/arena.h>
#include <spdlog/spdlog.h>

#include "exocheck/link/grpc_link.hpp"

namespace exocheck::coordinator {

using AgentReactor = grpc::ServerBidiReactor<proto::AgentMessage, proto::CoordinatorMessage>;

namespace {

google::protobuf::ArenaOptions arena_options() {
  google::protobuf::ArenaOptions options;
  options.start_block_size = 64 << 10;
  options.max_block_size = 4 << 20;
  return options;
}

}  // namespace

class AgentStream;

/// The one thread that sends what the dispatcher made for agents other than the one whose report
/// made it. Woken once for however many streams have something, where a writer thread per stream
/// was woken, and put to sleep, once for each.
class StreamWaker {
 public:
  StreamWaker() : thread_([this](const std::stop_token& stop) { run(stop); }) {}

  /// `stream` has something to send (called under the dispatcher's lock: this takes only its own).
  void wake(std::weak_ptr<AgentStream> stream) {
    {
      std::lock_guard lock(mutex_);
      woken_.push_back(std::move(stream));
    }
    changed_.notify_one();
  }

 private:
  void run(const std::stop_token& stop);

  std::mutex mutex_;
  std::condition_variable_any changed_;
  std::vector<std::weak_ptr<AgentStream>> woken_;
  std::jthread thread_;  // last: it stops and joins before the rest is destroyed
};

/// One agent's stream. Reads one message at a time and applies it; writes one message at a time,
/// whatever the dispatcher has for the agent then, until it has nothing (a message may carry
/// several leases, requests and notices: Work). Owns itself until gRPC is done with it.
class AgentStream final : public AgentReactor, public std::enable_shared_from_this<AgentStream> {
 public:
  AgentStream(JobDispatcher& dispatcher, LinkCounters& counters, AgentServiceImpl::LiveStreams& live,
              StreamWaker& waker, grpc::CallbackServerContext& context)
      : dispatcher_(dispatcher), counters_(counters), live_(live), waker_(waker), context_(context) {}

  void start() {
    live_.add();
    self_ = shared_from_this();
    read_next();
  }

  /// Writes what the dispatcher has for this agent now, unless a write is out: its end looks again.
  void send_pending() {
    std::lock_guard lock(mutex_);
    if (writing_ || finishing_ || broken_ || agent_id_ == 0) return;
    auto work = dispatcher_.work_for(agent_id_);
    if (!work.offer && !work.work) return;
    outgoing_.Clear();
    if (work.offer) {
      *outgoing_.mutable_offer() = std::move(*work.offer);
    } else {
      *outgoing_.mutable_work() = std::move(*work.work);
    }
    writing_ = true;
    StartWrite(&outgoing_);  // OnWriteDone is never run from here (gRPC does not inline it)
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      end_of_reports();
      return;
    }
    if (agent_id() == 0) {
      if (!incoming_->has_hello()) {
        finish({grpc::StatusCode::INVALID_ARGUMENT, "an agent stream must open with AgentHello"});
        return;
      }
      attach(incoming_->hello());
    } else {
      // What the metrics count: the messages after the hello, as when each stream had threads.
      counters_.agent_messages.fetch_add(1, std::memory_order_relaxed);
      counters_.agent_bytes.fetch_add(incoming_->ByteSizeLong(), std::memory_order_relaxed);
      read_one(*incoming_);
    }
    read_next();
  }

  void OnWriteDone(bool ok) override {
    {
      std::lock_guard lock(mutex_);
      writing_ = false;
      if (finishing_) {
        Finish(std::move(status_));
        return;
      }
      // A failed write means the stream broke: its read fails too, which detaches the agent,
      // whose subtrees wait again.
      if (!ok) {
        broken_ = true;
        return;
      }
    }
    send_pending();
  }

  void OnDone() override {
    live_.done();
    self_.reset();  // may destroy this (or the waker's thread does, when it holds it now)
  }

 private:
  std::uint64_t agent_id() {
    std::lock_guard lock(mutex_);
    return agent_id_;
  }

  void read_next() {
    arena_.Reset();
    incoming_ = google::protobuf::Arena::CreateMessage<proto::AgentMessage>(&arena_);
    StartRead(incoming_);
  }

  void attach(const proto::AgentHello& hello) {
    const auto id =
        dispatcher_.attach_agent(hello, [waker = &waker_, stream = weak_from_this()] { waker->wake(stream); });
    spdlog::info("agent {} is {} at {}", id, hello.name(), context_.peer());
    {
      std::lock_guard lock(mutex_);
      agent_id_ = id;
    }
    send_pending();  // its offer: the waker may have looked before the id was known
  }

  void read_one(const proto::AgentMessage& message) {
    const auto id = agent_id();
    bool to_send = false;
    if (message.has_job_check()) to_send = dispatcher_.record_check(id, message.job_check());
    if (message.has_report()) {
      try {
        to_send = dispatcher_.accept_report(id, message.report()) || to_send;
      } catch (const std::invalid_argument& error) {
        spdlog::error("agent {}: a report the coordinator cannot read: {}", id, error.what());
        to_send = true;
      }
    }
    // The work this report made (subtrees for a hungry agent, splits asked) goes out from here, at
    // once; other agents' streams are woken by the dispatcher's change. A report that made nothing
    // but its ack is not answered: the ack rides with the next work.
    if (to_send) send_pending();
  }

  /// The agent's half of the stream ended, or the call was cancelled.
  void end_of_reports() {
    const auto id = agent_id();
    if (id == 0) {
      finish({grpc::StatusCode::INVALID_ARGUMENT, "an agent stream must open with AgentHello"});
      return;
    }
    dispatcher_.detach_agent(id);
    finish(grpc::Status::OK);
  }

  /// Ends the call, after the write that is out, if one is.
  void finish(grpc::Status status) {
    std::lock_guard lock(mutex_);
    if (finishing_) return;
    finishing_ = true;
    if (writing_) {
      status_ = std::move(status);
      return;
    }
    Finish(std::move(status));
  }

  JobDispatcher& dispatcher_;
  LinkCounters& counters_;
  AgentServiceImpl::LiveStreams& live_;
  // Outlives every stream (~AgentServiceImpl waits for their ends), and is not called after the
  // agent's detach.
  StreamWaker& waker_;
  grpc::CallbackServerContext& context_;
  std::shared_ptr<AgentStream> self_;  ///< from start() to OnDone
  // Read side: one read out at a time, so only gRPC's reactions touch these, one after the other.
  // Reports are parsed into an arena, reset after each one: a report with class keys or a bug's
  // trace is thousands of small objects.
  google::protobuf::Arena arena_{arena_options()};
  proto::AgentMessage* incoming_ = nullptr;
  // Write side, under mutex_: the reactions and the waker's thread both write.
  std::mutex mutex_;
  std::uint64_t agent_id_ = 0;  ///< the dispatcher's, once the hello is read
  proto::CoordinatorMessage outgoing_;
  bool writing_ = false;    ///< a write is out: OnWriteDone sends what came meanwhile
  bool finishing_ = false;  ///< Finish called, or wanted once the write out is done
  bool broken_ = false;     ///< a write failed
  grpc::Status status_;     ///< the status to finish with once the write out is done
};

void StreamWaker::run(const std::stop_token& stop) {
  std::vector<std::weak_ptr<AgentStream>> now;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      if (!changed_.wait(lock, stop, [&] { return !woken_.empty(); })) return;
      now.swap(woken_);
    }
    for (const auto& woken : now) {
      if (const auto stream = woken.lock()) stream->send_pending();
    }
    now.clear();
  }
}

/// A stream refused for its token: finished at once.
class RefusedStream final : public AgentReactor {
 public:
  explicit RefusedStream(grpc::Status status) { Finish(std::move(status)); }
  void OnDone() override { delete this; }
};

void AgentServiceImpl::LiveStreams::add() {
  std::lock_guard lock(mutex);
  ++count;
}

void AgentServiceImpl::LiveStreams::done() {
  std::lock_guard lock(mutex);
  if (--count == 0) none.notify_all();
}

AgentServiceImpl::AgentServiceImpl(JobDispatcher& dispatcher, LinkCounters& counters, std::string token)
    : dispatcher_(dispatcher), counters_(counters), token_(std::move(token)), waker_(std::make_unique<StreamWaker>()) {}

AgentServiceImpl::~AgentServiceImpl() {
  std::unique_lock lock(live_.mutex);
  live_.none.wait(lock, [&] { return live_.count == 0; });
}

AgentReactor* AgentServiceImpl::Connect(grpc::CallbackServerContext* context) {
  if (auto refused = link::token_refusal(*context, token_)) {
    counters_.refused_calls.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("refused an agent from {}: {}", context->peer(), refused->error_message());
    return new RefusedStream(std::move(*refused));
  }
  auto stream = std::make_shared<AgentStream>(dispatcher_, counters_, live_, *waker_, *context);
  stream->start();
  return stream.get();
}

}  // namespace exocheck::coordinator
