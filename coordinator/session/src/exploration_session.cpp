#include "exocheck/coordinator/exploration_session.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/endings/run_ending.hpp"
#include "exocheck/engine/class_key.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/strategy.hpp"
#include "exocheck/options/timers.hpp"
#include "exocheck/wire/delivery_label.hpp"
#include "exocheck/wire/result_events.hpp"
#include "exocheck/wire/trace_file.hpp"

namespace exocheck::coordinator {
namespace {

/// Every message the run delivered, in order: the schedule that makes `exocheck replay` re-run it.
/// The run's schedule: each delivery's label (its message, and its handler's choices).
std::vector<std::string> delivered_messages(EventSpan events) {
  std::vector<std::string> delivered;
  for (const proto::Event* event : events) {
    if (event->step() > 0 && !event->message().empty()) delivered.push_back(wire::label_of(*event));
  }
  return delivered;
}

/// "Set to 0" for a message the run sent; the bare id when the events do not show its sending.
std::string describe_message(EventSpan events, const std::string& id) {
  for (const proto::Event* event : events) {
    for (const auto& sent : event->sent()) {
      if (sent.id() == id) return sent.type() + " to " + sent.receiver();
    }
  }
  return "unknown message";
}

/// This thread's conversion of a result, reused from one result to the next: made before the
/// session's lock is taken, so that workers convert their results at the same time.
const engine::Execution& converted(EventSpan events, const proto::RunResult& result) {
  thread_local engine::Execution execution;
  to_execution(events, result, execution);
  return execution;
}

RunConditions conditions_of(const ExplorationOptions& options) {
  return {options.explorer.heuristic,
          options.explorer.delivery,
          options.explorer.timers,
          options.step_limit,
          options.faults,
          options.liveness_bound};
}

}  // namespace

ExplorationSession::ExplorationSession(ExplorationOptions options)
    : options_(std::move(options)),
      conditions_(conditions_of(options_)),
      explorer_(options_.explorer),
      bugs_(options_.bug_traces) {}

ExplorationSession::ExplorationSession(ExplorationOptions options, const engine::Subtree& subtree)
    : options_(std::move(options)),
      conditions_(conditions_of(options_)),
      explorer_(options_.explorer, subtree),
      bugs_(options_.bug_traces) {}

std::optional<engine::Subtree> ExplorationSession::split() {
  std::lock_guard lock(mutex_);
  if (stopping()) return std::nullopt;
  return explorer_.split();
}

void ExplorationSession::subtree_finished(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  explorer_.subtree_finished(id);
}

bool ExplorationSession::request_backtrack(const engine::BacktrackRequest& request) {
  std::lock_guard lock(mutex_);
  return explorer_.request_backtrack(request);
}

std::vector<engine::BacktrackRequest> ExplorationSession::take_backtrack_requests() {
  std::lock_guard lock(mutex_);
  return explorer_.take_backtrack_requests();
}

std::vector<engine::ClassKey> ExplorationSession::class_keys() const {
  std::lock_guard lock(mutex_);
  return explorer_.class_keys();
}

std::uint64_t most_bugs(const ExplorationOptions& options) {
  return options.keep_going ? options.max_bugs : 1;
}

bool ExplorationSession::stopping() const {
  const auto most = most_bugs(options_);
  return stopped_ || (most > 0 && bugs_.size() >= most);
}

// What can be done without the lock is done before or after it: converting the result, a bug's
// signatures, the next lease's request. On several cores the lock is the one thing workers wait
// for each other on. A bug's trace (a copy of every event) is made under it, for the few runs
// that a bug keeps: which ones, only the bugs held under the lock know.
std::optional<Lease> ExplorationSession::next() {
  std::optional<engine::WorkItem> item;
  {
    std::lock_guard lock(mutex_);
    item = next_locked();
  }
  proto::RunRequest fresh;
  return lease_of(item, fresh);
}

bool ExplorationSession::complete(std::uint64_t id, EventSpan events, const proto::RunResult& result) {
  auto converted_result = bug_result(converted(events, result), events, result);
  std::lock_guard lock(mutex_);
  return complete_locked(id, converted_result);
}

Handover ExplorationSession::complete_and_next(std::uint64_t id, EventSpan events, const proto::RunResult& result,
                                               proto::RunRequest spent) {
  auto converted_result = bug_result(converted(events, result), events, result);
  return hand_over(id, converted_result, spent);
}

Handover ExplorationSession::complete_and_next(std::uint64_t id, const engine::Execution& execution,
                                               const proto::RunResult& result, proto::RunRequest spent) {
  if (!wire::lean_result(spent, result)) {
    throw std::logic_error("lease " + std::to_string(id) + ": a result that is not lean (" +
                           proto::RunStatus_Name(result.status()) + ") handed over without its events");
  }
  Result converted_result{execution, {}, result, false, {}, {}};
  return hand_over(id, converted_result, spent);
}

// The request is handed on by reference down to the lease made of it: each protobuf message
// moved by value is one more made, swapped and destroyed per result.
Handover ExplorationSession::hand_over(std::uint64_t id, Result& converted_result, proto::RunRequest& spent) {
  bool accepted = false;
  bool finished = false;
  std::size_t requests_held = 0;
  std::optional<engine::WorkItem> item;
  {
    std::lock_guard lock(mutex_);
    accepted = complete_locked(id, converted_result);
    item = next_locked();
    finished = finished_locked();
    requests_held = explorer_.backtrack_requests_held();
  }
  return {accepted, lease_of(item, spent), finished, requests_held};
}

std::optional<engine::WorkItem> ExplorationSession::next_locked() {
  if (stopping()) return std::nullopt;
  auto item = explorer_.next();
  if (item) leased_.emplace(item->id, Leased{item->ranking, item->sample});
  return item;
}

std::optional<Lease> ExplorationSession::lease_of(const std::optional<engine::WorkItem>& item,
                                                  proto::RunRequest& spent) const {
  std::optional<Lease> lease;
  if (!item) return lease;
  lease.emplace(Lease{item->id, std::move(spent)});  // braces: clang 14 has no parenthesized aggregate init
  to_request(*item, conditions_, lease->request);
  // A completed run's trace is kept whole for a determinism check, and for the nearest passing run.
  lease->request.set_whole_result(options_.explorer.checks.determinism || !options_.nearest_to.empty());
  lease->request.set_all_steps(item->whole);
  lease->request.set_steps_held(static_cast<std::uint32_t>(item->steps_held));
  return lease;
}

ExplorationSession::Result ExplorationSession::bug_result(const engine::Execution& execution, EventSpan events,
                                                          const proto::RunResult& result) const {
  Result made{execution, events, result, false, {}, {}};
  if (!engine::is_bug(endings::to_ending(result.status()), options_.explorer.checks.termination)) return made;
  made.failed = true;
  made.failures = failures_of(events, result);
  if (!engine::counts_classes(options_.explorer)) made.key = class_key(made);
  return made;
}

engine::ClassKey ExplorationSession::class_key(Result& converted_result) const {
  if (!converted_result.key) {
    converted_result.key =
        engine::class_key_of(engine::canonical_form(converted_result.execution, options_.explorer.timers));
  }
  return *converted_result.key;
}

bool ExplorationSession::complete_locked(std::uint64_t id, Result& converted_result) {
  const auto& [execution, events, result, failed, failures, key] = converted_result;
  const auto leased = leased_.find(id);
  if (leased == leased_.end()) return false;
  const auto ranking = std::move(leased->second.ranking);
  const auto sample = leased->second.sample;
  leased_.erase(leased);
  if (!explorer_.complete(id, execution)) return false;
  ++runs_;
  note_dead_letters(events, result);
  if (failed) {
    // Each way the run failed is a bug of its class (failures_of), the run's own first. Bug::steps.
    const std::uint64_t steps = events.size() > 1 ? events.size() - 1 : 0;
    std::optional<proto::TraceFile> trace;  // made for the first failure that keeps it
    for (std::size_t k = 0; k < failures.size(); ++k) {
      const Failure& failure = failures[k];
      const bool sampled = sample.has_value();
      const auto wanted = bugs_.wanted(failure.signature.key(), steps, sampled);
      Bug run{0, failure.signature.status, failure.detail, {}, {}, {}, runs_, failure.signature, 0,
              0, found_by(sample),         sampled};
      if (wanted.changed || !engine::counts_classes(options_.explorer)) run.key = class_key(converted_result);
      if (wanted.trace) {
        if (!trace) trace = trace_of(events, result, ranking);
        run.trace = k + 1 == failures.size() ? std::move(*trace) : *trace;
      }
      add_bug(std::move(run));
    }
  } else if (result.status() == proto::RUN_COMPLETED) {
    if (options_.explorer.checks.determinism && !stopping()) check_final_state(events, result, ranking, execution);
    if (!options_.nearest_to.empty()) note_passing(events, result, ranking);
  }
  return true;
}

std::string ExplorationSession::found_by(const std::optional<engine::WorkItem::Sample>& sample) {
  if (!sample) return "systematic";
  if (sample->strategy != engine::Strategy::kPct) return std::string(options::name_of(sample->strategy));
  return "pct depth " + std::to_string(sample->pct_depth);
}

// Every failing path is counted in its distinct bug; a new distinct bug is not taken once the
// exploration has all it looks for (runs in flight when it stopped may still fail anew).
void ExplorationSession::add_bug(Bug run) {
  const auto most = most_bugs(options_);
  if (!bugs_.find(run.signature.key()) && most > 0 && bugs_.size() >= most) return;
  const auto key = run.key;
  const auto offered = bugs_.offer(run);
  // Where classes are counted, not held, the explorer says whether this path counts its class.
  if (engine::counts_classes(options_.explorer)) {
    bugs_.count(offered.index, 1, {}, explorer_.new_class() ? 1 : 0);
  } else {
    bugs_.count(offered.index, 1, key);
  }
  if (offered.changed && options_.hands_over_bugs) new_bugs_.insert(offered.index);
}

void ExplorationSession::note_dead_letters(EventSpan events, const proto::RunResult& result) {
  for (const auto& id : result.dead_letters()) {
    if (!dead_letters_seen_.insert(id).second) continue;
    warnings_.push_back("dead letter " + id + " (" + describe_message(events, id) + ") in run " +
                        std::to_string(runs_));
  }
}

void ExplorationSession::check_final_state(EventSpan events, const proto::RunResult& result,
                                           const std::vector<std::string>& ranking,
                                           const engine::Execution& execution) {
  if (!reference_) reference_ = trace_of(events, result, ranking);
  const auto difference = determinism_.observe({result.final_state().begin(), result.final_state().end()});
  if (!difference) return;
  const auto detail = "against the first completed path: " + *difference;
  add_bug({0,
           proto::RUN_NONDETERMINISTIC,
           detail,
           trace_of(events, result, ranking),
           reference_,
           engine::class_key_of(engine::canonical_form(execution, options_.explorer.timers)),
           runs_,
           BugSignature{proto::RUN_NONDETERMINISTIC, {}, {}, detail},
           0,
           0,
           {}});
}

void ExplorationSession::note_passing(EventSpan events, const proto::RunResult& result,
                                      const std::vector<std::string>& ranking) {
  const auto delivered = delivered_messages(events);
  const auto& failure = options_.nearest_to;
  const auto shared = static_cast<std::size_t>(
      std::mismatch(delivered.begin(), delivered.end(), failure.begin(), failure.end()).first - delivered.begin());
  if (nearest_passing_ && nearest_passing_->second >= shared) return;
  nearest_passing_.emplace(trace_of(events, result, ranking), shared);
}

proto::TraceFile ExplorationSession::trace_of(EventSpan events, const proto::RunResult& result,
                                              const std::vector<std::string>& ranking) const {
  auto trace = new_trace(options_.subject, options_.args, conditions_, ranking);
  for (const auto& id : delivered_messages(events)) trace.add_prefix(id);
  for (const proto::Event* event : events) *trace.add_events() = *event;
  *trace.mutable_result() = result;
  return trace;
}

void ExplorationSession::abandon(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  if (leased_.erase(id) == 0) return;
  explorer_.abandon(id);
}

void ExplorationSession::stop() {
  stopped_ = true;
  explorer_.interrupt();
}

bool ExplorationSession::finished() const {
  std::lock_guard lock(mutex_);
  return finished_locked();
}

bool ExplorationSession::finished_locked() const {
  if (!leased_.empty()) return false;
  // A stopped session may leave abandoned items in the explorer: they will not be leased again.
  return stopping() || explorer_.finished();
}

Verdict ExplorationSession::verdict() const {
  std::lock_guard lock(mutex_);
  if (!finished_locked()) return Verdict::kRunning;
  if (!bugs_.empty()) return Verdict::kBugFound;
  return explorer_.explored_completely() ? Verdict::kCompleteNoBug : Verdict::kLimitReached;
}

bool ExplorationSession::explored_completely() const {
  std::lock_guard lock(mutex_);
  return finished_locked() && !stopped_ && explorer_.explored_completely();
}

std::optional<proto::TraceFile> ExplorationSession::reference() const {
  std::lock_guard lock(mutex_);
  return reference_;
}

std::optional<std::pair<proto::TraceFile, std::size_t>> ExplorationSession::nearest_passing() const {
  std::lock_guard lock(mutex_);
  return nearest_passing_;
}

std::vector<Bug> ExplorationSession::bugs() const {
  std::lock_guard lock(mutex_);
  return bugs_.bugs();
}

std::vector<Bug> ExplorationSession::take_new_bugs() {
  std::lock_guard lock(mutex_);
  std::vector<Bug> taken;
  for (const auto index : new_bugs_) taken.push_back(bugs_.at(index));
  new_bugs_.clear();
  return taken;
}

std::vector<BugTally> ExplorationSession::bug_tallies() const {
  std::lock_guard lock(mutex_);
  return bugs_.tallies();
}

std::string bugs_not_kept_warning(std::uint64_t kept, std::uint64_t more) {
  return std::to_string(more) + (more == 1 ? " more distinct bug was" : " more distinct bugs were") +
         " found after the first " + std::to_string(kept) + ": counted, their traces not kept (" +
         std::string(options::kBugTraces.flag) + ")";
}

std::vector<std::string> ExplorationSession::warnings() const {
  std::lock_guard lock(mutex_);
  auto warnings = warnings_;
  // Bugs handed over are the receiver's to count and warn of.
  if (bugs_.size() > options_.bug_traces && !options_.hands_over_bugs) {
    warnings.push_back(bugs_not_kept_warning(options_.bug_traces, bugs_.size() - options_.bug_traces));
  }
  return warnings;
}

Progress ExplorationSession::progress() const {
  std::lock_guard lock(mutex_);
  Progress progress;
  progress.stats = explorer_.stats();
  progress.outstanding = leased_.size();
  progress.frontier = explorer_.frontier();
  progress.bugs = bugs_.size();
  return progress;
}

double ExplorationSession::explored_share() const {
  std::lock_guard lock(mutex_);
  return explorer_.explored_share();
}

}  // namespace exocheck::coordinator
