#pragma once
// One exploration as the coordinator runs it: the engine, the leases out for execution, the
// bugs found with their replayable traces, and when to stop. No I/O and no transport: the
// embedded explorer (local agent threads) and the gRPC daemon both drive this class.
// Thread-safe: every member locks the session.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exocheck/coordinator/bug_groups.hpp"
#include "exocheck/coordinator/bug_signature.hpp"
#include "exocheck/coordinator/determinism_check.hpp"
#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/coordinator/lease.hpp"
#include "exocheck/coordinator/lease_source.hpp"
#include "exocheck/coordinator/spinning_mutex.hpp"
#include "exocheck/endings/verdict.hpp"
#include "exocheck/engine/class_key.hpp"
#include "exocheck/engine/explorer.hpp"
#include "exocheck/options/bounds.hpp"
#include "proto/control.pb.h"
#include "proto/trace.pb.h"

namespace exocheck::coordinator {

/// One exploration's options: what the client submits (ExplorationSettings on the wire, with the
/// subject), what the coordinator checks and what every agent decodes (exploration_settings.hpp).
struct ExplorationOptions {
  engine::ExplorerOptions explorer;  ///< reduction, sleep sets, heuristic, max paths, strategy
  /// Per run.
  std::uint64_t step_limit = options::kDefaultStepLimit;
  /// Faults the hook offers as choices of each run (none by default).
  proto::FaultBudget faults;
  /// A specification monitor hot throughout more than this many fair rounds of one run is a
  /// potential liveness bug (RunRequest.liveness_bound); 0: judged where a run ends only.
  std::uint32_t liveness_bound = 0;
  std::chrono::milliseconds run_timeout = options::kDefaultRunTimeout;
  /// The exploration's wall clock, from its start (0: none): the embedded explorer and the
  /// coordinator stop handing out work after it.
  std::chrono::milliseconds time_limit{0};
  bool keep_going = false;  ///< false: stop at the first bug
  /// With keep_going: stop once this many distinct bugs are found (0: none).
  std::uint64_t max_bugs = 0;
  /// Distinct bugs whose traces are kept; later ones are counted only.
  std::uint64_t bug_traces = options::kDefaultBugTraces;
  /// Distinct bugs new or with a shorter run wait for take_new_bugs(): an agent's subtree sessions
  /// pass them on to the coordinator, and their counts at the subtree's end (bug_tallies()).
  bool hands_over_bugs = false;
  /// A failure's deliveries (explore --from): the completed path that shares the longest prefix
  /// of them is kept (nearest_passing()). Empty: none is.
  std::vector<std::string> nearest_to;
  /// Through a coordinator (explore --from): the deliveries above the whole tree, the root of the
  /// job's first subtree. Empty: the program's start.
  std::vector<std::string> root_prefix;
  std::string subject;            ///< subject path as agents see it (recorded in bug traces)
  std::vector<std::string> args;  ///< its arguments
};

/// The warning for the distinct bugs found once `kept` had their traces kept: counted, no trace.
std::string bugs_not_kept_warning(std::uint64_t kept, std::uint64_t more);
/// How many distinct bugs an exploration looks for before it stops (0: no end).
std::uint64_t most_bugs(const ExplorationOptions& options);

/// Why the exploration ended (or that it has not): endings/verdict.hpp's table.
using endings::Verdict;

struct Progress {
  engine::Stats stats;
  std::size_t outstanding = 0;  ///< leases out
  std::size_t frontier = 0;     ///< choices known, not yet leased
  std::size_t bugs = 0;         ///< distinct bugs found (stats.bugs: the paths that failed)
  /// The share of the tree explored (ExplorationSession::explored_share), when it is estimated:
  /// by `explore` on a terminal, not for a job whose subtrees agents explore.
  std::optional<double> explored_share;
};

class ExplorationSession final : public LeaseSource {
 public:
  explicit ExplorationSession(ExplorationOptions options);
  /// Explores `subtree` only (engine/subtree.hpp): races above it become backtrack requests.
  ExplorationSession(ExplorationOptions options, const engine::Subtree& subtree);

  /// The next lease, or nothing when none is ready now or the session is stopping.
  std::optional<Lease> next() override;
  /// The events (from step 0) and result of lease `id`'s run. A second result for a lease,
  /// or one for an unknown lease, is ignored and returns false.
  bool complete(std::uint64_t id, EventSpan events, const proto::RunResult& result);
  bool complete(std::uint64_t id, const std::vector<proto::Event>& events, const proto::RunResult& result) {
    return complete(id, pointers_to(events), result);
  }
  /// complete(), then next() and finished(), under one lock: what a worker calls in a row between
  /// two of its runs (on several cores, each lock taken is a hand-over between them). The next
  /// lease's request is written over `spent` (the request just run, moved in): its strings are
  /// reused instead of allocated anew.
  Handover complete_and_next(std::uint64_t id, EventSpan events, const proto::RunResult& result,
                             proto::RunRequest spent) override;
  Handover complete_and_next(std::uint64_t id, EventSpan events, const proto::RunResult& result) {
    return complete_and_next(id, events, result, proto::RunRequest{});
  }
  /// The same for a lean result (wire::lean_result of `spent`, the request run, and `result`)
  /// that the caller has made into `execution` itself (decode_execution()): the session reads no
  /// event of a lean result. Throws std::logic_error for a result that is not lean.
  Handover complete_and_next(std::uint64_t id, const engine::Execution& execution, const proto::RunResult& result,
                             proto::RunRequest spent) override;
  /// The lease's run was lost (agent died, deadline passed): it is leased again.
  void abandon(std::uint64_t id) override;
  /// Stops handing out work (time limit, cancel); outstanding results are still accepted, and
  /// neither they nor one being taken in now are analysed further (engine::Explorer::interrupt).
  /// Takes no lock: it is called while a result's analysis holds the session's, which may last.
  void stop() override;

  /// Subtrees (engine/subtree.hpp): gives the shallowest open choice away; takes back one given
  /// away; takes a race of another explorer for a configuration of this one; hands over the
  /// races of this one for configurations above its subtree.
  std::optional<engine::Subtree> split();
  void subtree_finished(std::uint64_t id);
  bool request_backtrack(const engine::BacktrackRequest& request);
  std::vector<engine::BacktrackRequest> take_backtrack_requests();
  /// The distinct bugs found, or given a shorter run, since the last call (only with
  /// ExplorationOptions::hands_over_bugs).
  std::vector<Bug> take_new_bugs();
  /// Each distinct bug's paths and classes so far.
  std::vector<BugTally> bug_tallies() const;
  /// The keys of the classes explored (engine/class_key.hpp).
  std::vector<engine::ClassKey> class_keys() const;

  /// True when nothing more will be leased and nothing is outstanding.
  bool finished() const override;
  /// Every path of the tree (or subtree) explored: no limit reached, not stopped.
  bool explored_completely() const;
  Verdict verdict() const;
  /// The distinct bugs, each with its counts and its shortest failing run's trace.
  std::vector<Bug> bugs() const;
  /// "dead letter 0#3 (Set to 0) in run ..." lines, each distinct message once.
  std::vector<std::string> warnings() const;
  /// Leaves Progress::explored_share unset: walking the tree is left to whoever shows it.
  Progress progress() const;
  /// engine::Explorer::explored_share(): walks the tree held, under the session's lock.
  double explored_share() const;
  const ExplorationOptions& options() const override { return options_; }
  /// --check determinism: the first completed path's trace, the others' final states' reference.
  std::optional<proto::TraceFile> reference() const;
  /// With options().nearest_to: the completed path that shares most of its first deliveries, and
  /// how many; nullopt when no path completed.
  std::optional<std::pair<proto::TraceFile, std::size_t>> nearest_passing() const;

 private:
  /// A result as the session takes it in, with what was made of it before the lock.
  struct Result {
    const engine::Execution& execution;
    EventSpan events;
    const proto::RunResult& result;
    bool failed = false;            ///< a bug's run
    std::vector<Failure> failures;  ///< a bug's: each way its run failed
    /// A bug's path's class: made before the lock where bugs count their classes by key, else
    /// under it for a run that becomes a bug's representative.
    std::optional<engine::ClassKey> key;
  };
  /// A bug's signatures, and its class where classes are counted by key, made before the lock is
  /// taken. Its trace, a copy of every event, is made under the lock, and only for a run that a
  /// bug keeps (BugGroups::wanted): with --keep-going most failing runs are of a bug known
  /// already, and a trace made for each of them and thrown away took a third of minesweeper's
  /// exploration (tests/bench/results-2026-11-30.md).
  Result bug_result(const engine::Execution& execution, EventSpan events, const proto::RunResult& result) const;
  /// converted_result's class key, made once.
  engine::ClassKey class_key(Result& converted_result) const;

  Handover hand_over(std::uint64_t id, Result& converted_result, proto::RunRequest& spent);
  /// The lease of `item`, its request written over `spent` (moved from).
  std::optional<Lease> lease_of(const std::optional<engine::WorkItem>& item, proto::RunRequest& spent) const;
  // Helpers called with mutex_ held.
  std::optional<engine::WorkItem> next_locked();
  bool complete_locked(std::uint64_t id, Result& converted_result);
  bool stopping() const;
  bool finished_locked() const;
  void note_dead_letters(EventSpan events, const proto::RunResult& result);
  void add_bug(Bug run);
  proto::TraceFile trace_of(EventSpan events, const proto::RunResult& result,
                            const std::vector<std::string>& ranking) const;
  void check_final_state(EventSpan events, const proto::RunResult& result, const std::vector<std::string>& ranking,
                         const engine::Execution& execution);
  void note_passing(EventSpan events, const proto::RunResult& result, const std::vector<std::string>& ranking);
  /// What Bug::found_by says of a run made by `sample` (none: the systematic exploration's).
  static std::string found_by(const std::optional<engine::WorkItem::Sample>& sample);

  const ExplorationOptions options_;
  const RunConditions conditions_;  // of options_: what every run is asked under
  mutable SpinningMutex mutex_;
  engine::Explorer explorer_;
  // Out for execution (not completed, not abandoned), with the ranking each run was given (HMS
  // and SGR): a bug's trace records it; and which strategy made the run (a portfolio's members).
  struct Leased {
    std::vector<std::string> ranking;
    std::optional<engine::WorkItem::Sample> sample;
  };
  std::map<std::uint64_t, Leased> leased_;
  std::uint64_t runs_ = 0;  // results accepted, numbering runs in warnings
  BugGroups bugs_;
  std::set<std::size_t> new_bugs_;  ///< groups new or changed, not taken yet (hands_over_bugs)
  DeterminismCheck determinism_;
  std::optional<proto::TraceFile> reference_;  // the first completed path's, with a determinism check
  std::optional<std::pair<proto::TraceFile, std::size_t>> nearest_passing_;  // see nearest_passing()
  std::set<std::string> dead_letters_seen_;
  std::vector<std::string> warnings_;
  std::atomic<bool> stopped_{false};  ///< stop(), which takes no lock
};

}  // namespace exocheck::coordinator
