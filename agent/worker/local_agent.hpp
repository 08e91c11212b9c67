#pragma once
// Embedded mode's agent: worker threads in this process, each with its own Runner, that take
// leases from an exploration session and hand back results until the session is finished.

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "exocheck/agent/runner.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/coordinator/lease_source.hpp"
#include "unique_fd.hpp"

namespace exocheck::agent {

class DecodedExecution;

struct LocalAgentOptions {
  std::size_t workers = 1;  ///< runs at a time, one thread each
  bool fork_server = true;  ///< runs fork from a server (Runner); false: exec per run
  /// Worker i (and its subject processes) runs on the i-th CPU this process may use only (modulo
  /// their number): faster on a machine with nothing else to do, slower when other load shares it.
  bool pin_workers = false;
  bool in_place = true;  ///< the fork server performs its runs in place where it can (RunnerOptions)
};

/// Where the workers' time went, summed over the workers that have ended.
struct LocalAgentStats {
  RunnerCounters runs;
  /// CPU of the workers inside the session (leases, results: the coordinator's work), taken as
  /// the time in its calls: a worker stays on its CPU there, spinning while another holds the lock
  /// (it sleeps only when that lasts).
  double session_cpu_seconds = 0;
  /// CPU of the workers outside the session: the runner and the report (the agent's work). The
  /// thread's CPU time less the session's and the spins': a thread's CPU clock costs a system
  /// call (the monotonic clock does not), so it is read at the start and the end of a session only.
  double runner_cpu_seconds = 0;
  /// Wall time the workers waited for a lease: the session had none to hand out (all were out,
  /// the exploration was too narrow for every worker), or the worker had not joined yet.
  double lease_wait_seconds = 0;
  /// CPU of that wait: a worker with a CPU of its own spins a little before it sleeps.
  double lease_wait_cpu_seconds = 0;

  LocalAgentStats& operator+=(const LocalAgentStats& other) {
    runs += other.runs;
    session_cpu_seconds += other.session_cpu_seconds;
    runner_cpu_seconds += other.runner_cpu_seconds;
    lease_wait_seconds += other.lease_wait_seconds;
    lease_wait_cpu_seconds += other.lease_wait_cpu_seconds;
    return *this;
  }
};

/// Counted as runs happen (for an agent's metrics): runs by their status, fork servers started.
struct RunTally {
  /// One slot per status: a status added to trace.proto gets its own (a fixed count here once let
  /// the metrics read past the array).
  static constexpr std::size_t kStatuses = proto::RunStatus_ARRAYSIZE;
  std::array<std::atomic<std::uint64_t>, kStatuses> runs_by_status{};
  std::atomic<std::uint64_t> server_starts{0};  ///< fork servers started or restarted

  void count(proto::RunStatus status) {
    runs_by_status[static_cast<std::size_t>(status) % kStatuses].fetch_add(1, std::memory_order_relaxed);
  }
};

/// Worker threads that serve exploration sessions, one at a time, until the agent is destroyed.
/// Each worker keeps its thread, its CPU and its runner (with the runner's fork server) from one
/// session to the next, as exocheck-agent keeps its slots from job to job: a worker whose runner
/// has a server of the subject ready joins a session at once. A run that cannot be launched
/// (missing binary, not linked with the hook) stops the session: nothing more is run, and
/// launch_error() says why. The destructor stops the session being served and joins the workers.
class LocalAgent {
 public:
  /// Starts the workers, idle until serve().
  explicit LocalAgent(LocalAgentOptions options);
  /// Starts the workers on `session`.
  LocalAgent(coordinator::LeaseSource& session, LocalAgentOptions options);
  ~LocalAgent();
  LocalAgent(const LocalAgent&) = delete;
  LocalAgent& operator=(const LocalAgent&) = delete;

  /// Hands `session` to the workers, which end when it is finished. The session served before
  /// must be over (wait_for() returned true): std::logic_error otherwise. `session` must outlive
  /// its service: until wait_for() returns true, or the agent's destruction.
  void serve(coordinator::LeaseSource& session);
  /// Waits up to `timeout` for every worker to end the session served last; true when they have
  /// (and when no session was served).
  bool wait_for(std::chrono::milliseconds timeout);
  /// Stops the session served (LeaseSource::stop: nothing more is handed out, a result's analysis
  /// in progress gives up) and kills the runs in flight, whose leases go back unexplored: a time
  /// limit, Ctrl-C or a job stopped ends the exploration now, not after its longest run.
  void stop();
  /// New work came to the source from outside (a lease source fed by a coordinator): idle workers
  /// ask it again now instead of at their next poll.
  void wake();
  /// Why the subject of the session served last could not be launched, once a launch failed.
  std::optional<std::string> launch_error() const;
  /// The figures of the workers that have ended the session served last (all of them once
  /// wait_for() returned true).
  LocalAgentStats stats() const;
  /// Every run since the agent started, counted as it ends.
  const RunTally& tally() const { return tally_; }

 private:
  void work(std::size_t index);
  coordinator::LeaseSource* next_session(std::uint64_t served);
  LocalAgentStats explore(std::size_t index, Runner& runner, DecodedExecution& decoded);
  RunnerOptions runner_options() const;
  void join(std::size_t index, Runner& runner);
  bool spin_for_result(std::uint64_t seen, std::chrono::steady_clock::time_point since) const;
  void wait_to_join(std::uint64_t join_after, std::chrono::steady_clock::time_point join_at);
  bool run_lease(Runner& runner, RunSpec& spec, RunReport& report, const DecodedExecution& decoded,
                 std::optional<coordinator::Lease>& lease, LocalAgentStats& stats);
  coordinator::Handover hand_over_events(std::uint64_t id, RunSpec& spec, const RunReport& report);
  void worker_ended(const LocalAgentStats& stats);
  void give_up_server_starts();

  const LocalAgentOptions options_;
  const std::size_t workers_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // a result arrived or a worker ended (workers wait for leases)
  std::condition_variable ended_;    // a worker ended (wait_for() waits: not woken by every result)
  std::condition_variable ramp_;     // kResultsPerExtraServer more results arrived, or the session ended
  std::condition_variable served_;   // a session was handed to the workers, or the agent closes
  /// The session served last, set by serve() under mutex_ while no worker is in a session: a
  /// worker reads it once it saw sessions_ grow, and uses it until it ends its part.
  coordinator::LeaseSource* session_ = nullptr;
  std::atomic<std::uint64_t> sessions_{0};  ///< sessions served so far; changed under mutex_
  bool closing_ = false;                    ///< the destructor runs: workers return, not wait for a session
  std::size_t running_workers_ = 0;         ///< workers not yet ended in the session served last
  std::optional<std::string> launch_error_;
  RunTally tally_;
  LocalAgentStats stats_;
  std::chrono::steady_clock::time_point started_;  ///< when the session served last was handed over
  /// Results handed to the session served last so far (new leases may follow each); changed under
  /// mutex_, so that a waiter cannot miss the change, and read without it.
  std::atomic<std::uint64_t> results_{0};
  /// Readable once the session is over or stopped: a worker still starting its fork server gives
  /// up, a run in flight is killed (RunSpec::give_up).
  UniqueFd session_over_;
  /// Every worker can have a CPU of its own: another server's start costs the others nothing.
  bool cpu_per_worker_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace exocheck::agent
