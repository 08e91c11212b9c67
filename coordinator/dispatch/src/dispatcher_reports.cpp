// What agents report: splits, backtrack requests, figures, bugs and subtrees done, applied to the
// job once each.
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "exocheck/coordinator/subtree_wire.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {
namespace {

// Reports acked at once at most every this many (see accept_report).
constexpr std::uint64_t kReportsPerAck = 8;

/// What identifies a bug across the agents: its kind and its path's class. A subtree explored
/// again (its agent died) finds the same classes, maybe by other paths, and their bugs are one each.
std::string bug_identity(proto::RunStatus status, engine::ClassKey key) {
  return proto::RunStatus_Name(status) + ' ' + std::to_string(key.high) + ':' + std::to_string(key.low);
}

/// "dead letter 0#3 (Set to 0)" of "dead letter 0#3 (Set to 0) in run 12": each agent numbers
/// its own runs, the message is what is worth saying once.
std::string warning_subject(const std::string& warning) {
  const auto run = warning.rfind(" in run ");
  return run == std::string::npos ? warning : warning.substr(0, run);
}

}  // namespace

void JobDispatcher::accept_report(std::uint64_t agent_id, const proto::Report& report) {
  std::lock_guard lock(mutex_);
  auto found = agents_.find(agent_id);
  if (found == agents_.end()) return;
  ++reports_accepted_;
  Agent& agent = found->second;
  const auto& instance = instances_.at(agent.worker);
  auto& applied = applied_reports_[instance];
  Job* job = current_job();
  const bool stale = job == nullptr || report.job_id() != job->id;
  const bool seen = report.seq() != 0 && report.seq() <= applied;  // sent again after a reconnect
  // Not acked before the agent's check: it sends the report again once it has accepted the job.
  if (!stale && !seen && agent.accepted_job != job->id) return;
  if (report.seq() != 0) {
    if (!agent.outbox) {
      agent.outbox.emplace();
      agent.outbox->set_job_id(report.job_id());
    }
    agent.outbox->set_acked_report(std::max(agent.outbox->acked_report(), report.seq()));
    // An ack rides with the next work; it goes alone only now and then, or for a report that
    // holds what an agent should not keep long (a subtree's end with its class keys, bugs).
    if (report.seq() % kReportsPerAck == 0 || report.done_size() > 0 || report.bugs_size() > 0) poke(agent);
  }
  if (stale || seen) {
    notify();
    return;
  }
  if (report.seq() != 0) {
    applied = report.seq();
    record(job->id, [&](proto::JournalRecord& r) {
      r.mutable_applied()->set_instance(instance);
      r.mutable_applied()->set_seq(report.seq());
    });
  }
  if (!report.launch_failure().empty()) {
    // Every agent runs the same binary (same SHA-256): every run would fail alike.
    fail_job(*job, "agent " + agent.name + " could not run the subject: " + report.launch_failure());
    write_journal();
    notify();
    return;
  }
  const auto held = [&](std::uint64_t lease) { return job->ledger->worker_of(lease) == agent.worker; };
  for (const auto& split : report.splits()) {
    if (held(split.lease_id())) apply_split(*job, split);
  }
  for (const auto& raised : report.backtracks()) {
    if (!held(raised.lease_id())) continue;
    // A request whose owner waits is dropped: whoever explores that subtree next explores it
    // from its root, and meets the race itself.
    const auto owner = job->ledger->owner_of({raised.request().prefix().begin(), raised.request().prefix().end()});
    if (!owner || !job->ledger->worker_of(*owner)) continue;
    proto::RoutedBacktrack routed;
    routed.set_lease_id(*owner);
    *routed.mutable_request() = raised.request();
    record(job->id, [&](proto::JournalRecord& r) { *r.mutable_routed() = routed; });
    route(*job, routed);
  }
  for (const auto& progress : report.progress()) {
    if (held(progress.lease_id())) job->live[progress.lease_id()] = from_wire(progress.stats());
  }
  for (const auto& bug : report.bugs()) {
    if (held(bug.lease_id())) add_bug(*job, bug);
  }
  for (const auto& done : report.done()) {
    if (!held(done.lease_id())) continue;
    record(job->id, [&](proto::JournalRecord& r) { *r.mutable_done() = done; });
    apply_done(*job, done);
  }
  agent.leases_seen = report.leases_seen();
  // Hunger from before the last leases reached it says nothing about the agent now.
  set_hungry(agent, report.hungry() && report.leases_seen() == job->leases_sent[agent.worker]);
  stop_at_bounds(*job);
  balance(*job);
  finish_if_done(*job);
  write_journal();
  notify();
}

void JobDispatcher::apply_done(Job& job, const proto::LeaseDone& done) {
  const auto keys = keys_from_wire(done.class_keys());
  job.live.erase(done.lease_id());
  job.split_asked.erase(done.lease_id());
  job.routed.erase(done.lease_id());
  job.ledger->count(done.lease_id(), from_wire(done.stats()), keys);
  if (!done.complete()) job.incomplete = true;
  for (const auto& warning : done.warnings()) note_warning(job, warning);
  if (done.has_reference()) check_reference(job, done.reference());
  // Its requests came before it in the agent's report, and went out before this notice.
  const auto giver = job.ledger->finish(done.lease_id());
  if (!giver) return;
  const auto worker = job.ledger->worker_of(giver->lease);
  Agent* agent = worker ? agent_of_worker(*worker) : nullptr;
  if (agent == nullptr) return;  // sent when it comes back (reattach)
  auto& finished = *outbox_of(*agent, job).add_finished();
  finished.set_lease_id(giver->lease);
  finished.set_subtree_id(giver->subtree_id);
}

void JobDispatcher::add_bug(Job& job, const proto::FoundBug& found) {
  if (!job.settings.exploration.keep_going && !job.bugs.empty()) return;
  const engine::ClassKey key{found.class_high(), found.class_low()};
  if (!job.bug_classes.insert(bug_identity(found.status(), key)).second) return;
  // An agent's lease past its own --bug-traces sends its bugs without traces, to be counted.
  if (job.bugs.size() >= job.settings.exploration.bug_traces || !found.has_trace()) {
    // Counted, and journaled without its traces: a restarted coordinator counts it again.
    proto::FoundBug counted = found;
    counted.clear_trace();
    counted.clear_reference();
    record(job.id, [&](proto::JournalRecord& r) { *r.mutable_bug() = counted; });
    ++job.bugs_not_kept;
    return;
  }
  Bug bug{job.bugs.size() + 1, found.status(), found.detail(), found.trace(), std::nullopt, key};
  if (found.has_reference()) bug.reference = found.reference();
  record(job.id, [&](proto::JournalRecord& r) { *r.mutable_bug() = found; });
  if (!replaying_) {
    spdlog::info("job {}: bug {}: {} {}", job.id, bug.number, proto::RunStatus_Name(found.status()), found.detail());
  }
  job.bugs.push_back(std::move(bug));
}

// Each agent compares its lease's paths with that lease's first; the coordinator compares the
// leases' first paths with each other: every path is then compared with the job's first.
void JobDispatcher::check_reference(Job& job, const proto::TraceFile& reference) {
  const auto& state = reference.result().final_state();
  const auto difference = job.determinism.observe({state.begin(), state.end()});
  if (!job.reference) {
    job.reference = reference;
    return;
  }
  if (!difference) return;
  proto::FoundBug found;
  found.set_status(proto::RUN_NONDETERMINISTIC);
  found.set_detail("against the first completed path: " + *difference);
  *found.mutable_trace() = reference;
  *found.mutable_reference() = *job.reference;
  // Each distinct final state is one finding (DeterminismCheck): its text names it.
  const auto key = engine::class_key_of(found.detail());
  found.set_class_high(key.high);
  found.set_class_low(key.low);
  add_bug(job, found);
}

void JobDispatcher::note_warning(Job& job, const std::string& warning) {
  if (job.warning_subjects.insert(warning_subject(warning)).second) job.warnings.push_back(warning);
}

void JobDispatcher::stop_at_bounds(Job& job) {
  if (job.stopped) return;
  const auto max_paths = job.settings.exploration.explorer.max_paths;
  if (!job.bugs.empty() && !job.settings.exploration.keep_going) {
    stop_job(job);
  } else if (max_paths > 0 && stats_of(job).paths >= max_paths) {
    stop_job(job);
  }
}

}  // namespace exocheck::coordinator
