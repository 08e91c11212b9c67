#include "local_agent.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "exocheck/agent/runner.hpp"
#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/wire/result_events.hpp"

namespace exocheck::agent {
namespace {

// How long an idle worker waits before asking again when no result wakes it (a stop() from
// outside does not notify the agent).
constexpr std::chrono::milliseconds kIdlePoll{20};

}  // namespace

LocalAgent::LocalAgent(coordinator::ExplorationSession& session, LocalAgentOptions options)
    : session_(session), options_(options) {
  const std::size_t workers = std::max<std::size_t>(1, options_.workers);
  running_workers_ = workers;
  threads_.reserve(workers);
  for (std::size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

LocalAgent::~LocalAgent() {
  session_.stop();
  for (auto& thread : threads_) thread.join();
}

bool LocalAgent::wait_for(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [this] { return running_workers_ == 0; });
}

std::optional<std::string> LocalAgent::launch_error() const {
  std::lock_guard lock(mutex_);
  return launch_error_;
}

void LocalAgent::work() {
  try {
    while (!session_.finished()) {
      if (run_one()) continue;
      std::unique_lock lock(mutex_);
      changed_.wait_for(lock, kIdlePoll);
    }
  } catch (const std::exception& error) {
    // An internal error must not take the process down from a thread; end the exploration.
    spdlog::critical("local agent worker: {}", error.what());
    session_.stop();
  }
  worker_ended();
}

// Runs one lease if one is ready; false when there was none.
bool LocalAgent::run_one() {
  auto lease = session_.next();
  if (!lease) return false;
  RunSpec spec;
  spec.binary = session_.options().subject;
  spec.args = session_.options().args;
  spec.request = std::move(lease->request);
  spec.timeout = options_.run_timeout;
  Runner runner;
  auto report = runner.run(spec);
  if (report.result.status() == proto::RUN_LAUNCH_FAILED) {
    // Every other run would fail the same way: stop, and leave the lease unexplored.
    {
      std::lock_guard lock(mutex_);
      if (!launch_error_) launch_error_ = report.result.detail();
    }
    session_.stop();
    session_.abandon(lease->id);
  } else {
    const auto events = coordinator::pointers_to(report.events);
    const auto first = wire::first_event_to_send(report.events, spec.request, report.result);
    session_.complete(lease->id, coordinator::EventSpan(events).subspan(first), report.result);
  }
  changed_.notify_all();
  return true;
}

void LocalAgent::worker_ended() {
  {
    std::lock_guard lock(mutex_);
    --running_workers_;
  }
  changed_.notify_all();
}

}  // namespace exocheck::agent
