// What agents report: splits, backtrack requests, figures, bugs and subtrees done, applied to the
// job once each.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "backtrack_prefix.hpp"
#include "exocheck/coordinator/bug_wire.hpp"
#include "exocheck/coordinator/subtree_wire.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {
namespace {

// Reports acked at once at most every this many (see accept_report).
constexpr std::uint64_t kReportsPerAck = 8;

/// The configuration `raised` is for, read from its bytes (the rest goes on unparsed).
std::vector<std::string> prefix_of(const proto::RaisedBacktrack& raised) {
  try {
    return backtrack_prefix(raised.request());
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("lease " + std::to_string(raised.lease_id()) + ": " + error.what());
  }
}

/// "dead letter 0#3 (Set to 0)" of "dead letter 0#3 (Set to 0) in run 12": each agent numbers
/// its own runs, the message is what is worth saying once.
std::string warning_subject(const std::string& warning) {
  const auto run = warning.rfind(" in run ");
  return run == std::string::npos ? warning : warning.substr(0, run);
}

/// Whether `work` holds more than an ack (which waits for kReportsPerAck reports).
bool owes_more_than_an_ack(const proto::Work& work) {
  return work.leases_size() > 0 || work.split_size() > 0 || work.backtracks_size() > 0 || work.finished_size() > 0 ||
         work.drop_size() > 0 || work.stop();
}

}  // namespace

bool JobDispatcher::accept_report(std::uint64_t agent_id, const proto::Report& report) {
  std::lock_guard lock(mutex_);
  auto found = agents_.find(agent_id);
  if (found == agents_.end()) return false;
  ++reports_accepted_;
  Agent& agent = found->second;
  const auto& instance = instances_.at(agent.worker);
  auto& applied = applied_reports_[instance];
  Job* job = current_job();
  const bool stale = job == nullptr || report.job_id() != job->id;
  const bool seen = report.seq() != 0 && report.seq() <= applied;  // sent again after a reconnect
  // Not acked before the agent's check: it sends the report again once it has accepted the job.
  if (!stale && !seen && agent.accepted_job != job->id) return false;
  if (report.seq() != 0) {
    if (!agent.outbox) {
      agent.outbox.emplace();
      agent.outbox->set_job_id(report.job_id());
    }
    agent.outbox->set_acked_report(std::max(agent.outbox->acked_report(), report.seq()));
    // An ack rides with the next work, and goes alone only every kReportsPerAck reports, within
    // kOwedAtMost: the agent keeps its reports until acked. Acking a subtree's end (its class
    // keys) at once was a write alone for most leases, a fifth of the coordinator's.
    if (report.seq() % kReportsPerAck == 0) owe(agent);
  }
  if (stale || seen) {
    poke(agent);  // its ack at once: the agent may be waiting to forget what it sent again
    return notify(agent_id);
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
    return notify(agent_id);
  }
  const auto held = [&](std::uint64_t lease) { return job->ledger->worker_of(lease) == agent.worker; };
  std::size_t request_bytes = 0;
  for (const auto& raised : report.backtracks()) request_bytes += raised.request().size();
  if (request_bytes >= kBytesAckedAtOnce) poke(agent);
  for (const auto& split : report.splits()) {
    if (held(split.lease_id())) apply_split(*job, split);
  }
  for (const auto& raised : report.backtracks()) {
    // A stopped job explores nothing more: a request would only be journaled and sent for nothing
    // (tens of thousands a second under optimal DPOR), delaying the job's end.
    if (job->stopped) break;
    if (!held(raised.lease_id())) continue;
    // A request whose owner waits is dropped: whoever explores that subtree next explores it
    // from its root, and meets the race itself.
    const auto owner = job->ledger->owner_of(prefix_of(raised));
    if (!owner || !job->ledger->worker_of(*owner)) continue;
    proto::RoutedBacktrack routed;
    routed.set_lease_id(*owner);
    routed.set_request(raised.request());
    record(job->id, [&](proto::JournalRecord& r) { *r.mutable_routed() = routed; });
    route(*job, std::move(routed));
  }
  for (const auto& progress : report.progress()) {
    if (held(progress.lease_id())) job->live.set(progress.lease_id(), from_wire(progress.stats()));
  }
  for (const auto& bug : report.bugs()) {
    if (held(bug.lease_id())) add_bug(*job, bug);
  }
  for (const auto& done : report.done()) {
    if (!held(done.lease_id())) continue;
    record(job->id, [&](proto::JournalRecord& r) {
      *r.mutable_done() = done;
      // A passing path no nearer than the job's is not kept: the journal need not hold it.
      if (!nearer(*job, done)) r.mutable_done()->clear_nearest_passing();
    });
    apply_done(*job, done);
  }
  const bool was_hungry = agent.hungry;
  const auto was_seen = agent.leases_seen;
  agent.leases_seen = report.leases_seen();
  forget_delivered(*job, agent.worker, report.backtracks_seen());
  // Hunger from before the last leases reached it says nothing about the agent now.
  set_hungry(agent, report.hungry() && report.leases_seen() == job->leases_sent[agent.worker]);
  stop_at_bounds(*job);
  // Balancing looks at every hungry agent (hundreds of them at a thousand agents); a report of
  // figures alone (a busy agent's, every second: most reports) changes nothing it looks at, and
  // balancing again what was balanced does nothing. tick() balances anyway, ten times a second.
  const bool balance_inputs_moved =
      report.splits_size() > 0 || report.done_size() > 0 || agent.hungry != was_hungry || agent.leases_seen != was_seen;
  if (balance_inputs_moved) balance(*job);
  // Its stream answers this report with what was owed to it: one write for what came since its
  // last report (a busy agent reports every second), where each of those was a write.
  if (agent.owed && agent.outbox && owes_more_than_an_ack(*agent.outbox)) poke(agent);
  finish_if_done(*job);
  write_journal();
  return notify(agent_id);
}

void JobDispatcher::apply_done(Job& job, const proto::LeaseDone& done) {
  const auto keys = keys_from_wire(done.class_keys());
  job.live.erase(done.lease_id());
  job.split_asked.erase(done.lease_id());
  job.routed.erase(done.lease_id());
  SubtreeLedger::BugsFigures bugs;
  for (const auto& tally : tallies_from_wire(done.bug_tallies())) {
    bugs[tally.signature_key] = {tally.paths, {tally.classes.begin(), tally.classes.end()}, tally.counted_classes};
  }
  job.ledger->count(done.lease_id(), from_wire(done.stats()), keys, bugs);
  if (!done.complete()) job.incomplete = true;
  for (const auto& warning : done.warnings()) note_warning(job, warning);
  if (done.has_reference()) check_reference(job, done.reference());
  if (nearer(job, done)) job.nearest_passing.emplace(done.nearest_passing(), done.nearest_shared());
  // Its requests came before it in the agent's report, and went out before this notice.
  const auto giver = job.ledger->finish(done.lease_id());
  if (!giver) return;
  const auto worker = job.ledger->worker_of(giver->lease);
  Agent* agent = worker ? agent_of_worker(*worker) : nullptr;
  if (agent == nullptr) return;  // sent when it comes back (reattach)
  auto& finished = *outbox_when_due(*agent, job).add_finished();
  finished.set_lease_id(giver->lease);
  finished.set_subtree_id(giver->subtree_id);
}

// A lease sends each distinct bug it finds, and again each shorter run of it: the job keeps one
// per signature, the shortest run's trace within its cap; a subtree explored again (its agent
// died) sends its bugs again, which changes nothing. Journaled when it changed what is kept, with
// the trace only if kept.
std::optional<std::size_t> JobDispatcher::add_bug(Job& job, const proto::FoundBug& found) {
  Bug run = from_wire(found);
  const auto most = most_bugs(job.settings.exploration);
  const auto known = job.bugs.find(run.signature.key());
  if (!known && most > 0 && job.bugs.size() >= most) return std::nullopt;
  const auto offered = job.bugs.offer(run);
  if (!offered.changed) return offered.index;
  const Bug& kept = job.bugs.at(offered.index);
  record(job.id, [&](proto::JournalRecord& r) {
    *r.mutable_bug() = found;
    if (!kept.has_trace()) r.mutable_bug()->clear_trace();
    if (!kept.reference) r.mutable_bug()->clear_reference();
  });
  if (offered.added && !replaying_) {
    spdlog::info("job {}: bug {}: {} {}", job.id, kept.number, proto::RunStatus_Name(kept.status), kept.detail);
  }
  return offered.index;
}

bool JobDispatcher::nearer(const Job& job, const proto::LeaseDone& done) {
  return done.has_nearest_passing() && (!job.nearest_passing || done.nearest_shared() > job.nearest_passing->second);
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
  found.set_what(found.detail());
  if (const auto index = add_bug(job, found)) job.bugs.count(*index, 1, key);
}

void JobDispatcher::note_warning(Job& job, const std::string& warning) {
  if (job.warning_subjects.insert(warning_subject(warning)).second) job.warnings.push_back(warning);
}

void JobDispatcher::stop_at_bounds(Job& job) {
  if (job.stopped) return;
  const auto max_paths = job.settings.exploration.explorer.max_paths;
  if (const auto most = most_bugs(job.settings.exploration); most > 0 && job.bugs.size() >= most) {
    stop_job(job);
  } else if (max_paths > 0 && stats_of(job).paths >= max_paths) {
    stop_job(job);
  }
}

}  // namespace exocheck::coordinator
