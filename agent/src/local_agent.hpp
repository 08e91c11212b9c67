#pragma once
// Embedded mode's agent: worker threads in this process, each with its own Runner, that take
// leases from an exploration session and hand back results until the session is finished.

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
#include "unique_fd.hpp"

namespace exocheck::agent {

class DecodedExecution;

struct LocalAgentOptions {
  std::size_t workers = 1;                        ///< runs at a time, one thread each
  std::chrono::milliseconds run_timeout{10'000};  ///< per-run wall-clock limit
  bool fork_server = true;                        ///< runs fork from a server (Runner); false: exec per run
  /// Worker i (and its subject processes) runs on the i-th CPU this process may use only (modulo
  /// their number): faster on a machine with nothing else to do, slower when other load shares it.
  bool pin_workers = false;
  bool in_place = true;  ///< the fork server performs its runs in place where it can (RunnerOptions)
  /// Runners kept from one exploration to the next, or nullptr: each worker then has a runner for
  /// this exploration only. Worker i uses (*kept_runners)[i], made with this agent's options when
  /// missing. Their fork servers outlive the exploration, and a worker whose runner has a server
  /// of the subject ready joins at once. Must outlive the agent; used by one agent at a time.
  std::vector<Runner>* kept_runners = nullptr;
};

/// Where the workers' time went, summed over the workers that have ended.
struct LocalAgentStats {
  RunnerCounters runs;
  /// CPU of the workers inside the session (leases, results: the coordinator's work).
  double session_cpu_seconds = 0;
  /// CPU of the workers outside the session: the runner and the report (the agent's work).
  double runner_cpu_seconds = 0;
  /// Wall time the workers waited for a lease: the session had none to hand out (all were out,
  /// the exploration was too narrow for every worker), or the worker had not joined yet.
  double lease_wait_seconds = 0;
  /// CPU of that wait: a worker with a CPU of its own spins a little before it sleeps.
  double lease_wait_cpu_seconds = 0;
  /// Wall time in the session's calls; what exceeds session_cpu_seconds was spent waiting for its
  /// lock (or off the CPU).
  double session_wall_seconds = 0;

  LocalAgentStats& operator+=(const LocalAgentStats& other) {
    runs += other.runs;
    session_cpu_seconds += other.session_cpu_seconds;
    runner_cpu_seconds += other.runner_cpu_seconds;
    lease_wait_seconds += other.lease_wait_seconds;
    lease_wait_cpu_seconds += other.lease_wait_cpu_seconds;
    session_wall_seconds += other.session_wall_seconds;
    return *this;
  }
};

/// Starts its workers on construction; they stop when the session is finished. A run that cannot
/// be launched (missing binary, not linked with the hook) stops the session: nothing more is run,
/// and launch_error() says why. The destructor stops the session and joins the workers.
class LocalAgent {
 public:
  LocalAgent(coordinator::ExplorationSession& session, LocalAgentOptions options);
  ~LocalAgent();
  LocalAgent(const LocalAgent&) = delete;
  LocalAgent& operator=(const LocalAgent&) = delete;

  /// Waits up to `timeout` for every worker to end; true when they have.
  bool wait_for(std::chrono::milliseconds timeout);
  /// Why the subject could not be launched, once a launch failed.
  std::optional<std::string> launch_error() const;
  /// The figures of the workers that have ended (all of them once wait_for() returned true).
  LocalAgentStats stats() const;

 private:
  void work(std::size_t index);
  RunnerOptions runner_options() const;
  void join(std::size_t index, Runner& runner);
  bool spin_for_result(std::uint64_t seen, std::chrono::steady_clock::time_point since) const;
  void wait_to_join(std::uint64_t join_after, std::chrono::steady_clock::time_point join_at);
  bool run_lease(Runner& runner, RunSpec& spec, RunReport& report, const DecodedExecution& decoded,
                 std::optional<coordinator::Lease>& lease, double& mark, LocalAgentStats& stats);
  coordinator::Handover hand_over_events(std::uint64_t id, RunSpec& spec, const RunReport& report);
  void worker_ended(const LocalAgentStats& stats);
  void give_up_server_starts();

  coordinator::ExplorationSession& session_;
  const LocalAgentOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // a result arrived or a worker ended (workers wait for leases)
  std::condition_variable ended_;    // a worker ended (wait_for() waits: not woken by every result)
  std::condition_variable ramp_;     // kResultsPerExtraServer more results arrived, or the session ended
  std::size_t running_workers_ = 0;
  std::optional<std::string> launch_error_;
  LocalAgentStats stats_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  /// Results handed to the session so far (new leases may follow each); changed under mutex_, so
  /// that a waiter cannot miss the change, and read without it.
  std::atomic<std::uint64_t> results_{0};
  /// Readable once the session is over: a worker still starting its fork server gives up.
  UniqueFd session_over_;
  /// Every worker can have a CPU of its own: another server's start costs the others nothing.
  bool cpu_per_worker_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace exocheck::agent
