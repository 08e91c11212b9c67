#pragma once
// The coordinator without its transport: the queue of submitted explorations (one runs at a
// time), the agents attached, and the subtrees each agent explores (DESIGN.md, "Scale path"). The
// agents run the exploration engine themselves; the dispatcher only balances the work: it leases
// waiting subtrees to hungry agents, asks the agent with the shallowest subtree to split off part
// of it when nothing waits, routes backtrack requests to the owners of their configurations, and
// adds up the figures, class keys and bugs the agents report. The gRPC service
// (coordinator_server.cpp) is a thin layer over this class, so the rules here are tested without
// sockets. Thread-safe: every member locks the dispatcher.

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

#include "exocheck/coordinator/determinism_check.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/coordinator/exploration_settings.hpp"
#include "exocheck/coordinator/subtree_ledger.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

using Clock = std::chrono::steady_clock;

/// What the dispatcher wants sent to one agent now.
struct AgentWork {
  std::optional<proto::JobOffer> offer;  ///< the current job, when this agent has not seen it yet
  std::optional<proto::Work> work;       ///< leases, requests, notices and splits for this agent
};

class JobDispatcher {
 public:
  JobDispatcher();
  ~JobDispatcher();
  JobDispatcher(const JobDispatcher&) = delete;
  JobDispatcher& operator=(const JobDispatcher&) = delete;

  /// Queues an exploration; returns its job id. Throws std::invalid_argument for bad settings.
  std::uint64_t submit(const proto::SubmitRequest& request);
  /// Stops (or drops, if queued) a job. False when the job is unknown or already final.
  bool cancel(std::uint64_t job_id);

  /// A new agent stream; returns the agent's id.
  std::uint64_t attach_agent(const std::string& name, std::uint32_t slots);
  /// The agent's stream ended: every subtree it held and had not reported done waits again.
  void detach_agent(std::uint64_t agent_id);
  /// The agent's answer to an offer.
  void record_check(std::uint64_t agent_id, const proto::JobCheck& check);
  /// What the agent's explorations did since its last report. Reports about leases the agent no
  /// longer holds are ignored. Throws std::invalid_argument for a malformed report.
  void accept_report(std::uint64_t agent_id, const proto::Report& report);
  /// What to send to the agent now (an offer, or work), taken out of its queue.
  AgentWork work_for(std::uint64_t agent_id);

  /// Time passes: time limits stop jobs, finished jobs end and the next queued job starts.
  void tick(Clock::time_point now = Clock::now());

  /// The job's progress; nothing for an unknown job.
  std::optional<proto::JobProgress> progress(std::uint64_t job_id) const;
  /// Waits until the job has ended (or is unknown), or until `deadline`; true when it has ended.
  bool wait_until_over(std::uint64_t job_id, Clock::time_point deadline) const;
  /// The job's bugs (empty for an unknown job).
  std::vector<Bug> bugs(std::uint64_t job_id) const;

  /// A counter that moves whenever something changed (a submission, a report, a check, a tick).
  std::uint64_t generation() const;
  /// Blocks until generation() differs from `seen` or `timeout` passed.
  void wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) const;

 private:
  struct Job {
    std::uint64_t id = 0;
    JobSettings settings;
    proto::ExplorationSettings submitted;  ///< sent on to the agents, which make the same JobSettings
    proto::JobState state = proto::JOB_QUEUED;
    Clock::time_point started;
    Clock::time_point ended;  ///< set when the state becomes final
    std::vector<std::string> refusals;
    std::set<std::uint64_t> accepted_by;
    std::set<std::uint64_t> refused_by;
    std::string error;
    // Created when the job starts running.
    std::unique_ptr<SubtreeLedger> ledger;
    std::map<std::uint64_t, engine::Stats> live;  ///< the latest figures of leases not yet done
    std::set<std::uint64_t> split_asked;          ///< leases asked to split, not yet answered
    std::vector<Bug> bugs;
    std::set<std::string> bug_paths;  ///< a subtree explored again finds its bugs again
    std::vector<std::string> warnings;
    std::set<std::string> warning_subjects;
    std::optional<proto::TraceFile> reference;  ///< --check determinism: the first lease's first path
    DeterminismCheck determinism;
    bool stopped = false;
    bool incomplete = false;  ///< a lease was done without exploring all of its subtree
  };
  struct Agent {
    std::string name;
    std::uint32_t slots = 1;
    std::uint64_t offered_job = 0;
    std::uint64_t accepted_job = 0;
    std::uint64_t leases_sent = 0;  ///< on this stream, of the accepted job
    std::uint64_t leases_seen = 0;  ///< as the agent's last report said
    bool hungry = false;
    std::optional<proto::Work> outbox;
  };

  Job* current_job();
  const Job* find_job(std::uint64_t job_id) const;
  proto::Work& outbox_of(Agent& agent, const Job& job);
  void start_next_job(Clock::time_point now);
  void stop_job(Job& job);
  void balance(Job& job);
  void apply_done(Job& job, const proto::LeaseDone& done);
  void add_bug(Job& job, proto::RunStatus status, const std::string& detail, const proto::TraceFile& trace,
               const proto::TraceFile* reference);
  void check_reference(Job& job, const proto::TraceFile& reference);
  void note_warning(Job& job, const std::string& warning);
  void stop_at_bounds(Job& job);
  engine::Stats stats_of(const Job& job) const;
  void finish_if_done(Job& job);
  void fail_job(Job& job, const std::string& error);
  void release_leases_of(std::uint64_t agent_id);
  void fail_when_nobody_can_run(Job& job);
  void notify();

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::uint64_t generation_ = 0;
  std::map<std::uint64_t, std::unique_ptr<Job>> jobs_;
  std::deque<std::uint64_t> queue_;
  std::uint64_t running_job_ = 0;  ///< 0: none
  std::map<std::uint64_t, Agent> agents_;
  std::uint64_t next_job_id_ = 1;
  std::uint64_t next_agent_id_ = 1;
};

}  // namespace exocheck::coordinator
