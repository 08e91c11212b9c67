#include "agent_service.hpp"

#include <atomic>
#include <stdexcept>
#include <utility>

#include <google/protobuf/arena.h>
#include <spdlog/spdlog.h>

#include "exocheck/link/grpc_link.hpp"

namespace exocheck::coordinator {

namespace {

google::protobuf::ArenaOptions arena_options() {
  google::protobuf::ArenaOptions options;
  options.start_block_size = 64 << 10;
  options.max_block_size = 4 << 20;
  return options;
}

/// The service whose queue this thread serves, if it does.
thread_local const AgentServiceImpl* serving = nullptr;

}  // namespace

/// One agent's stream, touched only by the queue's thread. Reads one message at a time and applies
/// it; writes one message at a time, whatever the dispatcher has for the agent then, until it has
/// nothing (a message may carry several leases, requests and notices: Work). A read is always out
/// until one fails, which is how the call's end (the agent's, a cancel) is learnt. Deletes itself
/// once gRPC has given back every tag it was handed; starts nothing once the queue is shut down.
class AgentStream {
 public:
  explicit AgentStream(AgentServiceImpl& service) : service_(service), stream_(&context_) {
    ++out_;
    service_.RequestConnect(&context_, &stream_, service_.queue_.get(), service_.queue_.get(), &accepted_);
  }

  void happened(Happened what, bool ok) {
    --out_;
    switch (what) {
      case Happened::kAccepted:
        accepted(ok);
        break;
      case Happened::kRead:
        ok ? read_one() : end_of_reports();
        break;
      case Happened::kWritten:
        written(ok);
        break;
      case Happened::kFinished:
      case Happened::kWoken:
        break;
    }
    if (out_ == 0) {
      service_.forget(*this);
      delete this;
    }
  }

  /// Writes what the dispatcher has for this agent now, unless a write is out: its end looks again.
  void send_pending() {
    if (writing_ || finishing_ || broken_ || agent_id_ == 0 || service_.shut_) return;
    auto work = service_.dispatcher_.work_for(agent_id_);
    if (!work.offer && !work.work) return;
    outgoing_.Clear();
    if (work.offer) {
      *outgoing_.mutable_offer() = std::move(*work.offer);
    } else {
      *outgoing_.mutable_work() = std::move(*work.work);
    }
    writing_ = true;
    service_.counters_.agent_writes.fetch_add(1, std::memory_order_relaxed);
    ++out_;
    stream_.Write(outgoing_, &written_);
  }

  std::uint64_t agent_id() const { return agent_id_; }

 private:
  void accepted(bool ok) {
    if (!ok) return;  // the server is shutting down: the call never started
    service_.accept_next();
    if (auto refused = link::token_refusal(context_, service_.token_)) {
      service_.counters_.refused_calls.fetch_add(1, std::memory_order_relaxed);
      spdlog::warn("refused an agent from {}: {}", context_.peer(), refused->error_message());
      finish(std::move(*refused));
      return;
    }
    read_next();
  }

  void read_next() {
    if (service_.shut_) return;
    arena_.Reset();
    incoming_ = google::protobuf::Arena::CreateMessage<proto::AgentMessage>(&arena_);
    ++out_;
    stream_.Read(incoming_, &read_);
  }

  void read_one() {
    if (agent_id_ == 0) {
      if (!incoming_->has_hello()) {
        finish({grpc::StatusCode::INVALID_ARGUMENT, "an agent stream must open with AgentHello"});
        return;
      }
      attach(incoming_->hello());
    } else {
      // What the metrics count: the messages after the hello, as when each stream had threads.
      service_.counters_.agent_messages.fetch_add(1, std::memory_order_relaxed);
      service_.counters_.agent_bytes.fetch_add(incoming_->ByteSizeLong(), std::memory_order_relaxed);
      apply(*incoming_);
    }
    read_next();
  }

  void attach(const proto::AgentHello& hello) {
    // The dispatcher may wake this agent before attach_agent returns its id: the write below
    // sends what there is then.
    auto id = std::make_shared<std::atomic<std::uint64_t>>(0);
    const auto attached = service_.dispatcher_.attach_agent(hello, [service = &service_, id] {
      if (const auto known = id->load(std::memory_order_acquire); known != 0) service->wake(known);
    });
    id->store(attached, std::memory_order_release);
    agent_id_ = attached;
    service_.by_agent_.emplace(attached, this);
    spdlog::info("agent {} is {} at {}", attached, hello.name(), context_.peer());
    send_pending();  // its offer
  }

  void apply(const proto::AgentMessage& message) {
    bool to_send = false;
    if (message.has_job_check()) to_send = service_.dispatcher_.record_check(agent_id_, message.job_check());
    if (message.has_report()) {
      try {
        to_send = service_.dispatcher_.accept_report(agent_id_, message.report()) || to_send;
      } catch (const std::invalid_argument& error) {
        spdlog::error("agent {}: a report the coordinator cannot read: {}", agent_id_, error.what());
        to_send = true;
      }
    }
    // The work this report made for its agent goes out at once; a report that made nothing but
    // its ack is not answered: the ack rides with the next work. Other agents' streams are woken.
    if (to_send) send_pending();
  }

  /// The agent's half of the stream ended, or the call was cancelled.
  void end_of_reports() {
    if (agent_id_ == 0) {
      finish({grpc::StatusCode::INVALID_ARGUMENT, "an agent stream must open with AgentHello"});
      return;
    }
    service_.dispatcher_.detach_agent(agent_id_);
    service_.by_agent_.erase(agent_id_);
    finish(grpc::Status::OK);
  }

  void written(bool ok) {
    writing_ = false;
    if (finishing_) {
      if (!finish_sent_) send_finish();
      return;
    }
    // A failed write means the stream broke: its read fails too, which detaches the agent, whose
    // subtrees wait again.
    if (!ok) {
      broken_ = true;
      return;
    }
    send_pending();
  }

  /// Ends the call, after the write that is out, if one is.
  void finish(grpc::Status status) {
    if (finishing_) return;
    finishing_ = true;
    status_ = std::move(status);
    if (!writing_) send_finish();
  }

  void send_finish() {
    finish_sent_ = true;
    if (service_.shut_) return;
    ++out_;
    stream_.Finish(status_, &finished_);
  }

  AgentServiceImpl& service_;
  grpc::ServerContext context_;
  grpc::ServerAsyncReaderWriter<proto::CoordinatorMessage, proto::AgentMessage> stream_;
  QueueTag accepted_{this, Happened::kAccepted};
  QueueTag read_{this, Happened::kRead};
  QueueTag written_{this, Happened::kWritten};
  QueueTag finished_{this, Happened::kFinished};
  int out_ = 0;  ///< tags handed to gRPC and not given back
  // Reports are parsed into an arena, reset after each one: a report with class keys or a bug's
  // trace is thousands of small objects.
  google::protobuf::Arena arena_{arena_options()};
  proto::AgentMessage* incoming_ = nullptr;
  std::uint64_t agent_id_ = 0;  ///< the dispatcher's, once the hello is read
  proto::CoordinatorMessage outgoing_;
  bool writing_ = false;      ///< a write is out: its end sends what came meanwhile
  bool finishing_ = false;    ///< the call is to end, once the write out is done
  bool finish_sent_ = false;  ///< Finish called
  bool broken_ = false;       ///< a write failed
  grpc::Status status_;       ///< the status to finish with
};

AgentServiceImpl::AgentServiceImpl(JobDispatcher& dispatcher, LinkCounters& counters, std::string token)
    : dispatcher_(dispatcher), counters_(counters), token_(std::move(token)) {}

AgentServiceImpl::~AgentServiceImpl() {
  stop();
}

void AgentServiceImpl::add_to(grpc::ServerBuilder& builder) {
  builder.RegisterService(this);
  queue_ = builder.AddCompletionQueue();
}

void AgentServiceImpl::start() {
  thread_ = std::thread([this] { run(); });
}

// The queue is shut down by its own thread, which then starts nothing more on it: an operation
// started on a shut-down queue is an assertion in gRPC.
void AgentServiceImpl::stop() {
  std::call_once(stopped_, [this] {
    if (!queue_) return;
    if (!thread_.joinable()) {
      queue_->Shutdown();  // never served: nothing was started on it
      void* tag = nullptr;
      bool ok = false;
      while (queue_->Next(&tag, &ok)) {
      }
      return;
    }
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      if (!alarm_set_) {
        alarm_set_ = true;
        alarm_.Set(queue_.get(), gpr_now(GPR_CLOCK_MONOTONIC), &woken_tag_);
      }
    }
    thread_.join();
  });
}

void AgentServiceImpl::wake(std::uint64_t agent) {
  if (serving == this) {
    woken_here_.push_back(agent);  // written once the reaction that woke it is done
    return;
  }
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  woken_.push_back(agent);
  if (alarm_set_) return;
  alarm_set_ = true;
  alarm_.Set(queue_.get(), gpr_now(GPR_CLOCK_MONOTONIC), &woken_tag_);
}

void AgentServiceImpl::run() {
  serving = this;
  accept_next();
  void* tag = nullptr;
  bool ok = false;
  while (queue_->Next(&tag, &ok)) {
    auto& happened = *static_cast<QueueTag*>(tag);
    if (happened.what != Happened::kWoken) {
      happened.stream->happened(happened.what, ok);
    } else if (take_woken()) {
      shut_ = true;
      queue_->Shutdown();
    }
    send_woken();
  }
  serving = nullptr;
}

bool AgentServiceImpl::take_woken() {
  std::lock_guard lock(mutex_);
  alarm_set_ = false;
  woken_here_.insert(woken_here_.end(), woken_.begin(), woken_.end());
  woken_.clear();
  return stopping_;
}

void AgentServiceImpl::send_woken() {
  // send_pending wakes nobody (work_for), so the list does not grow while it is walked.
  for (const auto agent : woken_here_) {
    if (const auto stream = by_agent_.find(agent); stream != by_agent_.end()) stream->second->send_pending();
  }
  woken_here_.clear();
}

void AgentServiceImpl::accept_next() {
  new AgentStream(*this);  // owns itself: deleted once gRPC gave back its tags
}

void AgentServiceImpl::forget(AgentStream& stream) {
  const auto found = by_agent_.find(stream.agent_id());
  if (found != by_agent_.end() && found->second == &stream) by_agent_.erase(found);
}

}  // namespace exocheck::coordinator
