#pragma once
// The coordinator without its transport: the queue of submitted explorations (one runs at a
// time), the agents attached, and the subtrees each agent explores (DESIGN.md, "Distribution"). The
// agents run the exploration engine themselves; the dispatcher only balances the work: it leases
// waiting subtrees to hungry agents, asks the agent with the shallowest subtree to split off part
// of it when nothing waits, routes backtrack requests to the owners of their configurations, and
// adds up the figures, class keys and bugs the agents report. The gRPC service
// (coordinator/daemon/coordinator_server.cpp) is a thin layer over this class, so the rules here are tested without
// sockets. Thread-safe: every member locks the dispatcher.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "exocheck/coordinator/determinism_check.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/coordinator/exploration_settings.hpp"
#include "exocheck/coordinator/subtree_ledger.hpp"
#include "journal.hpp"
#include "live_figures.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

using Clock = std::chrono::steady_clock;

/// How long what a busy agent does not need yet (backtrack requests, acks, the ends of subtrees it
/// gave away) waits for a message of its own at most: a busy agent reports every second, and its
/// report is answered with them.
inline constexpr std::chrono::milliseconds kOwedAtMost{1'000};
/// Backtrack requests for one agent that are written at once, busy or not: a flow of them waiting
/// for the agent's next report was thousands in flight (a second's), which the journal holds until
/// the agent says it has them.
inline constexpr int kRoutedPerWrite = 256;
/// A report carrying this many bytes of backtrack requests is acked at once: its agent keeps it
/// until then, and a taker under optimal DPOR sends megabytes of them a second.
inline constexpr std::size_t kBytesAckedAtOnce = 256u << 10;

/// Done, failed or cancelled: the job takes no more work.
inline bool is_final(proto::JobState state) {
  return state != proto::JOB_QUEUED && state != proto::JOB_RUNNING;
}

/// What the dispatcher wants sent to one agent now.
struct AgentWork {
  std::optional<proto::JobOffer> offer;  ///< the current job, when this agent has not seen it yet
  std::optional<proto::Work> work;       ///< leases, requests, notices and splits for this agent
};

struct DispatcherOptions {
  /// How long the subtrees of an agent whose stream ended wait for it to come back (it keeps
  /// exploring them, and says so when it reconnects) before they are leased to others. After a
  /// restart, every agent counts as gone since the restart.
  std::chrono::milliseconds reattach_grace{3'000};
  /// Where every change of state is journaled (`--state-dir`); nullptr: nowhere.
  Journal* journal = nullptr;
  /// The coordinator's name in job offers (JobOffer.coordinator_instance): the same across
  /// restarts with one state dir, so that agents know the jobs they hold are still the same.
  std::string instance = "coordinator";
  /// The journal is compacted (written anew as the records of the present state) once it holds
  /// this many bytes, and twice what it held after its last compaction.
  std::uint64_t compact_at_bytes = 4ULL << 20;
};

class JobDispatcher {
 public:
  explicit JobDispatcher(DispatcherOptions options = {});
  ~JobDispatcher();
  JobDispatcher(const JobDispatcher&) = delete;
  JobDispatcher& operator=(const JobDispatcher&) = delete;

  /// Queues an exploration; returns its job id. Throws std::invalid_argument for bad settings.
  std::uint64_t submit(const proto::SubmitRequest& request);
  /// Stops (or drops, if queued) a job. False when the job is unknown or already final.
  bool cancel(std::uint64_t job_id);

  /// Replays a journal (FileJournal::read) into this dispatcher, before any other call: every job
  /// resumes as it was journaled. Throws std::runtime_error for an entry that does not fit.
  void restore(const std::vector<proto::JournalEntry>& entries);

  /// A new agent stream; returns the stream's id. `wake` is called, under the dispatcher's lock
  /// (it must not call back), whenever there is something new to send the agent (work_for) that
  /// the stream does not send itself (record_check's and accept_report's true).
  std::uint64_t attach_agent(const proto::AgentHello& hello, std::function<void()> wake = {});
  /// The agent's stream ended: its subtrees wait for it (reattach_grace), then for others.
  void detach_agent(std::uint64_t agent_id);
  /// The agent's answer to an offer. True when the agent has something to be sent now, which the
  /// caller sends (work_for): the agent's writer is not woken for it.
  bool record_check(std::uint64_t agent_id, const proto::JobCheck& check);
  /// What the agent's explorations did since its last report. Reports about leases the agent no
  /// longer holds are ignored. Throws std::invalid_argument for a malformed report. True as
  /// record_check; false when all there is for the agent is an ack, which rides with its next work.
  bool accept_report(std::uint64_t agent_id, const proto::Report& report);
  /// What to send to the agent now (an offer, or work), taken out of its queue.
  AgentWork work_for(std::uint64_t agent_id);

  /// Time passes: time limits stop jobs, the subtrees of agents gone longer than the grace wait
  /// again, finished jobs end and the next queued job starts.
  void tick(Clock::time_point now = Clock::now());

  /// The job's progress; nothing for an unknown job.
  std::optional<proto::JobProgress> progress(std::uint64_t job_id) const;
  /// Waits until the job has ended (or is unknown), or until `deadline`; true when it has ended.
  bool wait_until_over(std::uint64_t job_id, Clock::time_point deadline) const;
  /// The job's bugs (empty for an unknown job).
  std::vector<Bug> bugs(std::uint64_t job_id) const;
  /// explore --from: the job's completed path nearest its failure so far (Job::nearest_passing).
  std::optional<std::pair<proto::TraceFile, std::uint64_t>> nearest_passing(std::uint64_t job_id) const;

  /// What the coordinator's metrics show (dispatcher_figures.cpp).
  struct Figures {
    std::vector<proto::JobProgress> jobs;        ///< every job's progress, by id
    std::vector<proto::AgentStatus> agent_list;  ///< the agents attached, by name
    std::size_t agents = 0;                      ///< agent streams attached
    std::uint64_t slots = 0;                     ///< their slots
    std::uint64_t reports = 0;                   ///< agent reports accepted since the start
    std::uint64_t backtracks_routed = 0;         ///< backtrack requests routed since the start
    std::uint64_t backtracks_held = 0;           ///< those not known to have reached their agents
  };
  Figures figures() const;

  /// A counter that moves whenever something changed (a submission, a report, a check, a tick).
  std::uint64_t generation() const;
  /// Blocks until generation() differs from `seen` or `timeout` passed.
  void wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) const;

 private:
  struct RoutedRequest {
    /// Its number among the requests sent to its lease's agent instance (Job::backtracks_sent);
    /// 0 while not sent (the agent is away).
    std::uint64_t sent_as = 0;
    /// The proto::BacktrackRequest serialised, as its agent sent it: a few hundred bytes, where the
    /// message was several kilobytes of small strings, and thousands are held in a long optimal job.
    std::string request;
  };
  struct Forgotten {
    std::uint64_t seen = 0;      ///< Report.backtracks_seen
    std::uint64_t numbered = 0;  ///< Job::numbered
    bool operator==(const Forgotten&) const = default;
  };
  struct Job {
    Job(const proto::SubmitRequest& submitted, JobSettings job_settings)
        : request(submitted), settings(std::move(job_settings)), bugs(settings.exploration.bug_traces) {}
    std::uint64_t id = 0;
    proto::SubmitRequest request;  ///< as submitted, for a compacted journal
    JobSettings settings;
    proto::JobState state = proto::JOB_QUEUED;
    Clock::time_point started;
    Clock::time_point ended;                 ///< set when the state becomes final
    std::optional<double> restored_elapsed;  ///< an ended job's, from the journal
    std::vector<std::string> refusals;
    std::set<std::uint64_t> accepted_by;  ///< agents attached that accepted it (by stream)
    std::set<std::uint64_t> refused_by;
    std::string error;
    // Created when the job starts running.
    std::unique_ptr<SubtreeLedger> ledger;
    LiveFigures live;                     ///< the latest figures of leases not yet done
    std::set<std::uint64_t> split_asked;  ///< leases asked to split, not yet answered
    /// Backtrack requests routed to each lease not yet done and not known to have reached its
    /// agent: sent again when the agent comes back. Oldest first. (This and the maps by agent
    /// instance below are hashed: looked up for each request routed.)
    std::unordered_map<std::uint64_t, std::deque<RoutedRequest>> routed;
    /// Subtree leases sent to each agent instance (AgentHello.leases_seen's counterpart).
    std::unordered_map<std::uint64_t, std::uint64_t> leases_sent;
    /// Routed requests sent to each agent instance (Report.backtracks_seen's counterpart).
    std::unordered_map<std::uint64_t, std::uint64_t> backtracks_sent;
    /// Requests given a number (RoutedRequest::sent_as) for each agent instance, ever: unlike
    /// backtracks_sent, never set back when the agent comes back.
    std::unordered_map<std::uint64_t, std::uint64_t> numbered;
    /// What forget_delivered last looked at for each agent instance.
    std::unordered_map<std::uint64_t, Forgotten> forgotten;
    /// For each agent instance, the leases whose requests were numbered for it (RoutedRequest::
    /// sent_as), some perhaps finished or forgotten since: where forget_delivered looks.
    std::unordered_map<std::uint64_t, std::set<std::uint64_t>> numbered_leases;
    /// The distinct bugs, each with its shortest run the agents sent; their counts are the
    /// ledger's (SubtreeLedger::bugs()), as a lease explored again counts its paths once.
    BugGroups bugs;
    std::vector<std::string> warnings;
    std::set<std::string> warning_subjects;
    std::optional<proto::TraceFile> reference;  ///< --check determinism: the first lease's first path
    /// explore --from: the completed path nearest the failure of the leases done, and the
    /// deliveries it shares with it.
    std::optional<std::pair<proto::TraceFile, std::uint64_t>> nearest_passing;
    DeterminismCheck determinism;
    bool stopped = false;
    bool incomplete = false;  ///< a lease was done without exploring all of its subtree
  };
  /// One agent stream.
  struct Agent {
    std::uint64_t id = 0;  ///< its stream's
    std::string name;
    std::uint32_t slots = 1;
    std::uint64_t worker = 0;  ///< the agent instance's number: the ledger's worker
    proto::AgentHello hello;   ///< what it held when it connected
    std::uint64_t offered_job = 0;
    std::uint64_t accepted_job = 0;
    std::uint64_t leases_seen = 0;  ///< as the agent's last report said
    bool hungry = false;
    std::optional<proto::Work> outbox;
    bool poked = false;  ///< something new to send: `wake` is called at notify()
    bool owed = false;   ///< something in its outbox that can wait (owe)
    Clock::time_point owed_since;
    std::function<void()> wake;  ///< attach_agent's
  };

  Job* current_job();
  Agent* agent_of_worker(std::uint64_t worker);
  /// Its writer is woken at the next notify().
  void poke(Agent& agent);
  /// Its writer is woken at its next report, or by a tick once it has waited kOwedAtMost, unless
  /// it writes before (outbox_when_due).
  void owe(Agent& agent);
  /// The agents owed longer than kOwedAtMost are poked.
  void poke_owed(Clock::time_point now);
  void set_hungry(Agent& agent, bool hungry);
  std::uint64_t worker_of_instance(const std::string& instance);
  const Job* find_job(std::uint64_t job_id) const;
  void start_next_job(Clock::time_point now);
  void stop_job(Job& job);
  void apply_done(Job& job, const proto::LeaseDone& done);
  /// The index of `found`'s distinct bug in job.bugs; none past --max-bugs.
  std::optional<std::size_t> add_bug(Job& job, const proto::FoundBug& found);
  void check_reference(Job& job, const proto::TraceFile& reference);
  /// Whether `done` brings a passing path nearer the job's failure than any it has.
  static bool nearer(const Job& job, const proto::LeaseDone& done);
  void note_warning(Job& job, const std::string& warning);
  void stop_at_bounds(Job& job);
  engine::Stats stats_of(const Job& job) const;
  void finish_if_done(Job& job);
  void fail_job(Job& job, const std::string& error);
  void fail_when_nobody_can_run(Job& job);
  /// Wakes what waits for this operation's changes: watchers, and the streams of the agents with
  /// something new to send, but `writes_itself`'s: its stream, which called in, sends what this
  /// made for it itself (a wake-up is a thread switched in and out, per report).
  /// True when `writes_itself` has something new to send.
  bool notify(std::uint64_t writes_itself = 0);

  // The journal (dispatcher_journal.cpp).
  /// Adds a record to this operation's entry (nothing without a journal, or while replaying).
  void record(std::uint64_t job_id, const std::function<void(proto::JournalRecord&)>& fill);
  void record_end(const Job& job);
  /// This operation's entry to the journal, under the lock, before anything it decided goes out.
  void write_journal();
  void apply_record(const proto::JournalRecord& record);
  // Compaction (journal_compaction.cpp).
  /// The journal written anew as the records that rebuild the present state, once it has grown.
  void compact_journal_if_grown();
  /// Appends to `out` the entries that rebuild `job` as it is now (journal.hpp's frame()).
  void frame_image(const Job& job, std::string& out) const;
  /// A compacted journal's JobImage: `job`'s ledger and what its leases' ends brought.
  void apply_image(Job& job, const proto::JobImage& image);

  // Leases (dispatcher_leases.cpp).
  /// What the worker held and had not reported done waits again.
  void release_leases_of(std::uint64_t worker);
  void take_back(Job& job, const SubtreeLedger::Released& released);
  void reattach(Agent& agent, Job& job);
  void apply_split(Job& job, const proto::SplitAnswer& split);
  void route(Job& job, proto::RoutedBacktrack routed);
  /// Forgets the oldest `count` of `requests` (those the lease's agent has received).
  static void forget_routed(std::deque<RoutedRequest>& requests, std::uint64_t count);
  /// Forgets the requests routed to `worker`'s leases that its agent says it has received.
  void forget_delivered(Job& job, std::uint64_t worker, std::uint64_t backtracks_seen);
  void balance(Job& job);
  /// Hungry agents take what waits.
  void feed_hungry(Job& job);
  void ask_splits(Job& job);
  /// The agent's next message, for its writer to send at once.
  proto::Work& outbox_of(Agent& agent, const Job& job);
  /// The agent's next message, for what an agent whose slots are all busy does not need yet.
  proto::Work& outbox_when_due(Agent& agent, const Job& job);
  /// The agent's next message, its writer not woken.
  static proto::Work& unsent(Agent& agent, const Job& job);

  std::uint64_t reports_accepted_ = 0;
  std::uint64_t backtracks_routed_ = 0;
  const DispatcherOptions options_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  /// wait_until_over's, notified only when a job ended: a client watching a job is not woken by
  /// every agent report.
  mutable std::condition_variable ended_;
  bool job_ended_ = false;  ///< a job ended in this operation: notify() wakes `ended_`
  std::uint64_t generation_ = 0;
  std::map<std::uint64_t, std::unique_ptr<Job>> jobs_;
  std::deque<std::uint64_t> queue_;
  std::uint64_t running_job_ = 0;  ///< 0: none
  // Hashed, as instances_ and applied_reports_: looked up for every report, request routed and
  // lease's end, at a thousand agents (trees of them were a twentieth of the coordinator's CPU).
  std::unordered_map<std::uint64_t, Agent> agents_;
  std::uint64_t next_job_id_ = 1;
  std::uint64_t next_agent_id_ = 1;
  std::map<std::string, std::uint64_t> workers_;                       ///< agent instance -> worker number
  std::unordered_map<std::uint64_t, std::string> instances_;           ///< worker number -> agent instance
  std::map<std::uint64_t, Clock::time_point> absent_since_;            ///< workers without a stream
  std::unordered_map<std::uint64_t, std::uint64_t> stream_of_worker_;  ///< worker number -> its newest agent stream
  std::set<std::uint64_t> hungry_;                                  ///< agent streams whose slots found nothing to run
  std::vector<std::uint64_t> poked_;                                ///< agent streams to wake at the next notify()
  std::deque<std::pair<std::uint64_t, Clock::time_point>> owed_;    ///< agent streams owed, and since, oldest first
  std::unordered_map<std::string, std::uint64_t> applied_reports_;  ///< agent instance -> last report seq
  proto::JournalEntry pending_;                                     ///< this operation's records, journaled at its end
  std::uint64_t compacted_bytes_ = 0;                               ///< the journal's size after its last compaction
  bool replaying_ = false;
};

}  // namespace exocheck::coordinator
