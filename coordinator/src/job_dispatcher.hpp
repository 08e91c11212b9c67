#pragma once
// The coordinator without its transport: the queue of submitted explorations (one runs at a
// time), the agents attached, and the leases out on each agent with their deadlines. The gRPC
// service (coordinator_server.cpp) is a thin layer over this class, so the rules here are
// tested without sockets. Thread-safe: every member locks the dispatcher.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exocheck/coordinator/exploration_session.hpp"
#include "exploration_settings.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

using Clock = std::chrono::steady_clock;

/// What the dispatcher wants sent to one agent now.
struct AgentWork {
  std::optional<proto::JobOffer> offer;  ///< the current job, when this agent has not seen it yet
  std::vector<proto::Lease> leases;      ///< new leases for this agent (never before its offer was accepted)
};

class JobDispatcher {
 public:
  /// `lease_slack` is added to each lease's deadline beyond twice the job's run timeout
  /// (a lease may wait behind one run at the agent before its own run starts).
  explicit JobDispatcher(std::chrono::milliseconds lease_slack = std::chrono::seconds(5));
  ~JobDispatcher();
  JobDispatcher(const JobDispatcher&) = delete;
  JobDispatcher& operator=(const JobDispatcher&) = delete;

  /// Queues an exploration; returns its job id. Throws std::invalid_argument for bad settings.
  std::uint64_t submit(const proto::SubmitRequest& request);
  /// Stops (or drops, if queued) a job. False when the job is unknown or already final.
  bool cancel(std::uint64_t job_id);

  /// A new agent stream; returns the agent's id.
  std::uint64_t attach_agent(const std::string& name, std::uint32_t slots);
  /// The agent's stream ended: every lease out on it is issued again.
  void detach_agent(std::uint64_t agent_id);
  /// The agent's answer to an offer.
  void record_check(std::uint64_t agent_id, const proto::JobCheck& check);
  /// Results from an agent; each lease is accepted once, unknown or expired ones are ignored.
  /// Returns how many were accepted.
  std::size_t accept_results(std::uint64_t agent_id, const proto::ResultBatch& batch);
  /// What to send to the agent now (an offer and/or leases up to its capacity).
  AgentWork work_for(std::uint64_t agent_id);

  /// Time passes: expired leases are issued again, time limits stop jobs, finished jobs end
  /// and the next queued job starts.
  void tick(Clock::time_point now = Clock::now());

  /// The job's progress; nothing for an unknown job.
  std::optional<proto::JobProgress> progress(std::uint64_t job_id) const;
  /// Waits until the job has ended (or is unknown), or until `deadline`; true when it has ended.
  bool wait_until_over(std::uint64_t job_id, Clock::time_point deadline) const;
  /// The job's bugs (empty for an unknown job).
  std::vector<Bug> bugs(std::uint64_t job_id) const;

  /// A counter that moves whenever something changed (a submission, results, a check, a tick).
  std::uint64_t generation() const;
  /// Blocks until generation() differs from `seen` or `timeout` passed.
  void wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) const;

 private:
  struct Job {
    std::uint64_t id = 0;
    JobSettings settings;
    std::unique_ptr<ExplorationSession> session;  ///< created when the job starts running
    proto::JobState state = proto::JOB_QUEUED;
    Clock::time_point started;
    Clock::time_point ended;  ///< set when the state becomes final
    std::vector<std::string> refusals;
    std::set<std::uint64_t> accepted_by;
    std::set<std::uint64_t> refused_by;
    std::string error;
  };
  struct Agent {
    std::string name;
    std::uint32_t slots = 1;
    std::uint64_t offered_job = 0;
    std::uint64_t accepted_job = 0;
    std::size_t outstanding = 0;
  };

  Job* current_job();
  const Job* find_job(std::uint64_t job_id) const;
  void start_next_job(Clock::time_point now);
  void finish_if_done(Job& job);
  void fail_job(Job& job, const std::string& error);
  void abandon_leases_of(std::uint64_t agent_id);
  void fail_when_nobody_can_run(Job& job);
  std::optional<std::string> launch_failure(const proto::LeaseResult& result, const Agent& agent) const;
  void notify();

  const std::chrono::milliseconds lease_slack_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::uint64_t generation_ = 0;
  std::map<std::uint64_t, std::unique_ptr<Job>> jobs_;
  std::deque<std::uint64_t> queue_;
  std::uint64_t running_job_ = 0;  ///< 0: none
  std::map<std::uint64_t, Agent> agents_;
  std::map<std::uint64_t, LeaseHeld> leases_;  ///< by coordinator lease id
  std::uint64_t next_job_id_ = 1;
  std::uint64_t next_agent_id_ = 1;
  std::uint64_t next_lease_id_ = 1;
};

}  // namespace exocheck::coordinator
