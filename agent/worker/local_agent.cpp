#include "local_agent.hpp"

#include <spdlog/spdlog.h>

#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "cpu_hold.hpp"
#include "cpu_pinning.hpp"
#include "decoded_execution.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/coordinator/spinning_mutex.hpp"
#include "exocheck/wire/result_events.hpp"

namespace exocheck::agent {
namespace {

using Clock = std::chrono::steady_clock;

// How long an idle worker waits before asking again when no result wakes it (a stop() from
// outside does not notify the agent).
constexpr std::chrono::milliseconds kIdlePoll{20};
constexpr std::uint64_t kResultsPerExtraServer = 32;
constexpr std::chrono::milliseconds kJoinAfter{200};
// A worker with a CPU of its own that finds no lease spins this long for the next result before it
// sleeps: on a virtual machine, an idle vCPU's physical CPU may go to another guest and come back
// late, and most waits for a lease are shorter than one run.
constexpr std::chrono::microseconds kSpinForResult{100};
// And a worker that ended its part in a session, this long for the next one.
constexpr std::chrono::microseconds kSpinForSession{200};

/// CPU seconds of the calling thread so far (a system call, not a read of the vDSO's clock).
double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

LocalAgent::LocalAgent(LocalAgentOptions options)
    : options_(options), workers_(std::max<std::size_t>(1, options.workers)) {
  session_over_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  cpu_per_worker_ = workers_ <= allowed_cpus().size();
  threads_.reserve(workers_);
  for (std::size_t i = 0; i < workers_; ++i) threads_.emplace_back([this, i] { work(i); });
}

LocalAgent::LocalAgent(coordinator::LeaseSource& session, LocalAgentOptions options) : LocalAgent(options) {
  serve(session);
}

LocalAgent::~LocalAgent() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    if (session_ != nullptr && running_workers_ > 0) session_->stop();
  }
  give_up_server_starts();
  served_.notify_all();
  for (auto& thread : threads_) thread.join();
}

void LocalAgent::serve(coordinator::LeaseSource& session) {
  {
    std::lock_guard lock(mutex_);
    if (running_workers_ > 0) {
      throw std::logic_error("local agent: a session was handed over while the last one is still being explored");
    }
    session_ = &session;
    ++sessions_;
    running_workers_ = workers_;
    launch_error_.reset();
    stats_ = {};
    results_ = 0;
    started_ = Clock::now();
    if (session_over_) {
      std::uint64_t over = 0;  // the last session's end, if it was written: cleared for this one
      [[maybe_unused]] const auto read = ::read(session_over_.get(), &over, sizeof over);
    }
  }
  served_.notify_all();
}

bool LocalAgent::wait_for(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return ended_.wait_for(lock, timeout, [this] { return running_workers_ == 0; });
}

void LocalAgent::stop() {
  coordinator::LeaseSource* session = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (session_ == nullptr || running_workers_ == 0) return;
    session = session_;
  }
  // Outside the lock: a worker waiting to join asks the session under it, which may wait for a
  // result's analysis; LeaseSource::stop() makes that give up. The session outlives its service.
  session->stop();
  give_up_server_starts();  // and the runs in flight
  changed_.notify_all();
}

void LocalAgent::wake() {
  {
    std::lock_guard lock(mutex_);
    ++results_;  // what idle workers watch; the joining ramp counts it as one more result
  }
  changed_.notify_all();
}

std::optional<std::string> LocalAgent::launch_error() const {
  std::lock_guard lock(mutex_);
  return launch_error_;
}

LocalAgentStats LocalAgent::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void LocalAgent::work(std::size_t index) {
  if (options_.pin_workers) {
    const auto cpus = allowed_cpus();
    if (!cpus.empty() && !pin_this_thread({cpus[index % cpus.size()]})) {
      spdlog::warn("worker {}: cannot pin to CPU {}", index, cpus[index % cpus.size()]);
    }
  }
  // One runner per worker for the agent's life: it keeps its fork server between runs, and
  // between sessions of the same subject.
  Runner runner(runner_options());
  DecodedExecution decoded;  // a clean run's events, decoded for the session without protobuf messages
  for (std::uint64_t served = 0; next_session(served) != nullptr; ++served) {
    worker_ended(explore(index, runner, decoded));
  }
}

// The session handed over after the `served` first, once there is one; nullptr once the agent
// closes.
coordinator::LeaseSource* LocalAgent::next_session(std::uint64_t served) {
  if (cpu_per_worker_) {
    // Spin a little first, yielding: the thread that hands over the next session may share this
    // CPU, and one on another CPU would otherwise wake this one (a wake-up of an idle virtual CPU
    // costs tens of microseconds, as much as a run).
    const auto since = Clock::now();
    for (unsigned spin = 1; sessions_.load() == served; ++spin) {
      std::this_thread::yield();
      if (spin % 16 == 0 && Clock::now() - since > kSpinForSession) break;
    }
  }
  std::unique_lock lock(mutex_);
  served_.wait(lock, [&] { return closing_ || sessions_ > served; });
  return closing_ ? nullptr : session_;
}

// This worker's part in the session served last: runs until the session is finished.
LocalAgentStats LocalAgent::explore(std::size_t index, Runner& runner, DecodedExecution& decoded) {
  const RunnerCounters counters_before = runner.counters();
  LocalAgentStats stats;
  // The session's subject and the run timeout, once: each run only brings its request.
  RunSpec spec;
  spec.binary = session_->options().subject;
  spec.args = session_->options().args;
  spec.timeout = session_->options().run_timeout;
  spec.lean_events = &decoded;
  spec.give_up = session_over_.get();
  std::optional<coordinator::Lease> lease;   // the next run, handed over with the last result
  RunReport& report = runner.kept_report();  // every run's, reused: see Runner::run(spec, report)
  const double cpu_at_start = thread_cpu_seconds();
  try {
    const auto joining = Clock::now();
    const auto starts_before = runner.counters().server_starts;
    join(index, runner);  // a server started here is the agent's work, as in a first run
    tally_.server_starts.fetch_add(runner.counters().server_starts - starts_before, std::memory_order_relaxed);
    stats.lease_wait_seconds += seconds_since(joining);
    std::optional<CpuHold> hold;  // a worker pinned by the options stays where it is
    if (!options_.pin_workers) hold.emplace(allowed_cpus());
    for (bool more = true; more;) {
      if (lease) {
        if (hold) hold->before_run();
        more = run_lease(runner, spec, report, decoded, lease, stats);
        if (hold) hold->after_run();
        continue;
      }
      // Read before asking: a result that lands between the question and the wait changes it, so
      // the wait ends at once instead of after kIdlePoll.
      const std::uint64_t seen = results_.load();
      const auto asked = Clock::now();
      lease = session_->next();
      stats.session_cpu_seconds += seconds_since(asked);
      if (lease) continue;
      if (session_->finished()) {
        give_up_server_starts();
        break;
      }
      const auto waiting = Clock::now();
      if (cpu_per_worker_) {
        const bool woken = spin_for_result(seen, waiting);
        stats.lease_wait_cpu_seconds += seconds_since(waiting);  // on the CPU throughout
        if (woken) {
          stats.lease_wait_seconds += seconds_since(waiting);
          continue;
        }
      }
      {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, kIdlePoll, [&] { return results_.load() != seen; });
      }
      stats.lease_wait_seconds += seconds_since(waiting);
    }
  } catch (const std::exception& error) {
    // An internal error must not take the process down from a thread; end the exploration.
    spdlog::critical("local agent worker: {}", error.what());
    session_->stop();
    if (lease) session_->abandon(lease->id);  // a lease held forever would keep the session from finishing
  }
  stats.runner_cpu_seconds =
      std::max(0.0, thread_cpu_seconds() - cpu_at_start - stats.session_cpu_seconds - stats.lease_wait_cpu_seconds);
  stats.runs = runner.counters() - counters_before;
  return stats;
}

// True once a result came after `seen`; false after kSpinForResult from `since` without one.
bool LocalAgent::spin_for_result(std::uint64_t seen, Clock::time_point since) const {
  for (unsigned spin = 1;; ++spin) {
    if (results_.load() != seen) return true;
    coordinator::relax_cpu();
    if (spin % 64 == 0 && Clock::now() - since > kSpinForResult) return false;
  }
}

// Waits until worker `index` is to take part, with its runner's fork server ready if it has one.
void LocalAgent::join(std::size_t index, Runner& runner) {
  const auto& subject = session_->options().subject;
  const auto& args = session_->options().args;
  bool ready = runner.prepare(subject, args);
  if (!ready && index > 0 && options_.fork_server && cpu_per_worker_ && session_over_) {
    // On a CPU of its own, this worker's server start costs the others nothing: it starts at once,
    // and gives up if the session is over first (the exploration does not wait for it).
    ready = runner.start_server(subject, args, session_->options().run_timeout, session_over_.get());
  }
  // Else worker k joins once k times kResultsPerExtraServer results are in, or k times kJoinAfter
  // has passed: small explorations run on one server. A worker whose runner has a server ready
  // costs nothing to join.
  if (ready || !options_.fork_server) return;
  wait_to_join(index * kResultsPerExtraServer, started_ + static_cast<int>(index) * kJoinAfter);
}

// Another fork server costs a start-up (exec, main, the snapshot: as much as a few dozen runs in
// place), which pays off only in explorations longer than that: a worker joins once `join_after`
// results are in, or at `join_at` (runs that take long, hangs among them, are worth another server
// at once). Not woken by every result: only by those that may let it join.
void LocalAgent::wait_to_join(std::uint64_t join_after, std::chrono::steady_clock::time_point join_at) {
  std::unique_lock lock(mutex_);
  while (results_.load() < join_after && std::chrono::steady_clock::now() < join_at && !session_->finished()) {
    ramp_.wait_until(lock, std::min(join_at, std::chrono::steady_clock::now() + kIdlePoll),
                     [&] { return results_.load() >= join_after || session_->finished(); });
  }
}

RunnerOptions LocalAgent::runner_options() const {
  return {.fork_server = options_.fork_server, .in_place = options_.in_place};
}

// Runs `lease` and hands its result over, taking the next lease in the same call when one is
// ready (`lease` then holds it; else it is empty). False once the session is finished.
bool LocalAgent::run_lease(Runner& runner, RunSpec& spec, RunReport& report, const DecodedExecution& decoded,
                           std::optional<coordinator::Lease>& lease, LocalAgentStats& stats) {
  spec.request = std::move(lease->request);
  const auto starts_before = runner.counters().server_starts;
  runner.run(spec, report);
  tally_.count(report.result.status());
  tally_.server_starts.fetch_add(runner.counters().server_starts - starts_before, std::memory_order_relaxed);
  const auto handing_over = Clock::now();
  bool finished = false;
  const auto status = report.result.status();
  if (stops_exploration(status)) {
    // Every other run would fail the same way, or the program cannot be explored as a whole:
    // stop, and leave the lease unexplored.
    {
      std::lock_guard lock(mutex_);
      if (!launch_error_) launch_error_ = refusal_text(report.result);
    }
    session_->stop();
    session_->abandon(lease->id);
    lease.reset();
  } else if (report.given_up) {
    // The session was stopped (stop()): its schedule stays unexplored, as a lease never run.
    session_->abandon(lease->id);
    lease.reset();
  } else {
    auto handover = report.events_taken ? session_->complete_and_next(lease->id, decoded.execution(), report.result,
                                                                      std::move(spec.request))
                                        : hand_over_events(lease->id, spec, report);
    lease = std::move(handover.next);
    finished = handover.finished;
    if (finished) give_up_server_starts();
  }
  stats.session_cpu_seconds += seconds_since(handing_over);
  std::uint64_t results;
  {
    std::lock_guard lock(mutex_);
    results = ++results_;
  }
  changed_.notify_all();
  if (finished || results % kResultsPerExtraServer == 0) ramp_.notify_all();
  return !finished;
}

// A result with its events parsed (every result that is not lean).
coordinator::Handover LocalAgent::hand_over_events(std::uint64_t id, RunSpec& spec, const RunReport& report) {
  const auto events = coordinator::pointers_to(report.events);
  const auto first = wire::first_event_to_send(report.events, spec.request, report.result);
  return session_->complete_and_next(id, coordinator::EventSpan(events).subspan(first), report.result,
                                     std::move(spec.request));
}

void LocalAgent::give_up_server_starts() {
  if (!session_over_) return;
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = ::write(session_over_.get(), &one, sizeof one);  // cannot block: non-blocking
}

void LocalAgent::worker_ended(const LocalAgentStats& stats) {
  {
    std::lock_guard lock(mutex_);
    stats_ += stats;
    --running_workers_;
  }
  changed_.notify_all();
  ramp_.notify_all();
  ended_.notify_all();
}

}  // namespace exocheck::agent
