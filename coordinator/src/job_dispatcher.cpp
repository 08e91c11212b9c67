#include "job_dispatcher.hpp"

#include <stdexcept>
#include <utility>

#include <spdlog/spdlog.h>

#include "exocheck/coordinator/subtree_wire.hpp"

namespace exocheck::coordinator {

namespace {

bool is_final(proto::JobState state) {
  return state != proto::JOB_QUEUED && state != proto::JOB_RUNNING;
}

/// What identifies a bug across the agents: a subtree explored again (its agent died) finds the
/// same paths, and their bugs are one each.
std::string bug_path(proto::RunStatus status, const proto::TraceFile& trace) {
  std::string path = proto::RunStatus_Name(status);
  for (const auto& id : trace.prefix()) path += ' ' + id;
  return path;
}

/// "dead letter 0#3 (Set to 0)" of "dead letter 0#3 (Set to 0) in run 12": each agent numbers
/// its own runs, the message is what is worth saying once.
std::string warning_subject(const std::string& warning) {
  const auto run = warning.rfind(" in run ");
  return run == std::string::npos ? warning : warning.substr(0, run);
}

}  // namespace

JobDispatcher::JobDispatcher() = default;

JobDispatcher::~JobDispatcher() = default;

std::uint64_t JobDispatcher::submit(const proto::SubmitRequest& request) {
  auto job = std::make_unique<Job>();
  job->settings = to_job_settings(request);
  job->submitted = request.settings();
  std::lock_guard lock(mutex_);
  job->id = next_job_id_++;
  const auto id = job->id;
  spdlog::info("job {} submitted: {} ({} args)", id, request.subject(), request.args_size());
  jobs_.emplace(id, std::move(job));
  queue_.push_back(id);
  start_next_job(Clock::now());
  notify();
  return id;
}

bool JobDispatcher::cancel(std::uint64_t job_id) {
  std::lock_guard lock(mutex_);
  const auto found = jobs_.find(job_id);
  if (found == jobs_.end() || is_final(found->second->state)) return false;
  Job& job = *found->second;
  if (job.state == proto::JOB_QUEUED) {
    std::erase(queue_, job_id);
    job.state = proto::JOB_LIMIT_REACHED;
  } else {
    stop_job(job);
    finish_if_done(job);
  }
  spdlog::info("job {} cancelled", job_id);
  notify();
  return true;
}

std::uint64_t JobDispatcher::attach_agent(const std::string& name, std::uint32_t slots) {
  std::lock_guard lock(mutex_);
  const auto id = next_agent_id_++;
  Agent agent;
  agent.name = name;
  agent.slots = std::max<std::uint32_t>(slots, 1);
  agents_.emplace(id, std::move(agent));
  spdlog::info("agent {} ({}) attached with {} slots", id, name, slots);
  notify();
  return id;
}

void JobDispatcher::detach_agent(std::uint64_t agent_id) {
  std::lock_guard lock(mutex_);
  release_leases_of(agent_id);
  agents_.erase(agent_id);
  spdlog::info("agent {} detached", agent_id);
  if (Job* job = current_job()) {
    fail_when_nobody_can_run(*job);
    if (job->state == proto::JOB_RUNNING) {
      balance(*job);
      finish_if_done(*job);
    }
  }
  notify();
}

// What the agent held and had not reported done waits again, to be explored anew from its root:
// the figures it reported for them so far are dropped, and what they had given away is void
// (SubtreeLedger::release), so that nothing is counted twice.
void JobDispatcher::release_leases_of(std::uint64_t agent_id) {
  Job* job = current_job();
  if (job == nullptr || !job->ledger) return;
  const auto released = job->ledger->release(agent_id);
  for (const auto lease : released.waiting) {
    job->live.erase(lease);
    job->split_asked.erase(lease);
    spdlog::warn("job {}: lease {} of agent {} waits again", job->id, lease, agent_id);
  }
  for (const auto& [lease, worker] : released.dropped) {
    job->live.erase(lease);
    job->split_asked.erase(lease);
    if (!worker || *worker == agent_id || !agents_.contains(*worker)) continue;
    outbox_of(agents_.at(*worker), *job).add_drop(lease);
  }
}

void JobDispatcher::record_check(std::uint64_t agent_id, const proto::JobCheck& check) {
  std::lock_guard lock(mutex_);
  auto agent = agents_.find(agent_id);
  Job* job = current_job();
  if (agent == agents_.end() || job == nullptr || job->id != check.job_id()) return;
  if (check.accepted()) {
    agent->second.accepted_job = job->id;
    agent->second.leases_sent = 0;
    agent->second.leases_seen = 0;
    agent->second.hungry = true;
    job->accepted_by.insert(agent_id);
    balance(*job);
  } else {
    const auto line = "agent " + agent->second.name + ": " + check.reason();
    spdlog::warn("job {} refused by {}", job->id, line);
    job->refusals.push_back(line);
    job->refused_by.insert(agent_id);
    fail_when_nobody_can_run(*job);
  }
  notify();
}

// Without an agent able to run it, a job would wait forever: it fails, with every refusal as
// the reason, as soon as each connected agent has refused it.
void JobDispatcher::fail_when_nobody_can_run(Job& job) {
  if (job.refused_by.empty() || is_final(job.state)) return;
  for (const auto& [id, agent] : agents_) {
    if (!job.refused_by.contains(id)) return;
  }
  std::string reasons;
  for (const auto& refusal : job.refusals) reasons += (reasons.empty() ? "" : "; ") + refusal;
  fail_job(job, "no agent can run the subject: " + reasons);
}

void JobDispatcher::accept_report(std::uint64_t agent_id, const proto::Report& report) {
  std::lock_guard lock(mutex_);
  Job* job = current_job();
  auto found = agents_.find(agent_id);
  if (job == nullptr || found == agents_.end() || found->second.accepted_job != job->id) return;
  Agent& agent = found->second;
  if (!report.launch_failure().empty()) {
    // Every agent runs the same binary (same SHA-256): every run would fail alike.
    fail_job(*job, "agent " + agent.name + " could not run the subject: " + report.launch_failure());
    notify();
    return;
  }
  SubtreeLedger& ledger = *job->ledger;
  const auto held = [&](std::uint64_t lease) { return ledger.worker_of(lease) == agent_id; };
  for (const auto& split : report.splits()) {
    job->split_asked.erase(split.lease_id());
    if (!held(split.lease_id())) continue;
    if (split.has_given()) {
      ledger.split_off(split.lease_id(), from_wire(split.given()));
    } else {
      ledger.nothing_to_split(split.lease_id());
    }
  }
  for (const auto& raised : report.backtracks()) {
    if (!held(raised.lease_id())) continue;
    // A request whose owner waits or is gone is dropped: whoever explores that subtree next
    // explores it from its root, and meets the race itself.
    const auto owner = ledger.owner_of({raised.request().prefix().begin(), raised.request().prefix().end()});
    const auto worker = owner ? ledger.worker_of(*owner) : std::nullopt;
    if (!worker || !agents_.contains(*worker)) continue;
    auto& routed = *outbox_of(agents_.at(*worker), *job).add_backtracks();
    routed.set_lease_id(*owner);
    *routed.mutable_request() = raised.request();
  }
  for (const auto& progress : report.progress()) {
    if (held(progress.lease_id())) job->live[progress.lease_id()] = from_wire(progress.stats());
  }
  for (const auto& bug : report.bugs()) {
    if (held(bug.lease_id())) {
      add_bug(*job, bug.status(), bug.detail(), bug.trace(), bug.has_reference() ? &bug.reference() : nullptr);
    }
  }
  for (const auto& done : report.done()) {
    if (held(done.lease_id())) apply_done(*job, done);
  }
  agent.leases_seen = report.leases_seen();
  agent.hungry = report.hungry();
  stop_at_bounds(*job);
  balance(*job);
  finish_if_done(*job);
  notify();
}

void JobDispatcher::apply_done(Job& job, const proto::LeaseDone& done) {
  const auto keys = keys_from_wire(done.class_keys());
  job.live.erase(done.lease_id());
  job.split_asked.erase(done.lease_id());
  job.ledger->count(done.lease_id(), from_wire(done.stats()), keys);
  if (!done.complete()) job.incomplete = true;
  for (const auto& warning : done.warnings()) note_warning(job, warning);
  if (done.has_reference()) check_reference(job, done.reference());
  // Its requests came before it in the agent's report, and went out before this notice.
  const auto giver = job.ledger->finish(done.lease_id());
  if (!giver) return;
  const auto worker = job.ledger->worker_of(giver->lease);
  if (!worker || !agents_.contains(*worker)) return;
  auto& finished = *outbox_of(agents_.at(*worker), job).add_finished();
  finished.set_lease_id(giver->lease);
  finished.set_subtree_id(giver->subtree_id);
}

void JobDispatcher::add_bug(Job& job, proto::RunStatus status, const std::string& detail, const proto::TraceFile& trace,
                            const proto::TraceFile* reference) {
  if (!job.settings.exploration.keep_going && !job.bugs.empty()) return;
  if (!job.bug_paths.insert(bug_path(status, trace)).second) return;
  Bug bug{job.bugs.size() + 1, status, detail, trace, std::nullopt};
  if (reference != nullptr) bug.reference = *reference;
  spdlog::info("job {}: bug {}: {} {}", job.id, bug.number, proto::RunStatus_Name(status), detail);
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
  add_bug(job, proto::RUN_NONDETERMINISTIC, "against the first completed path: " + *difference, reference,
          &*job.reference);
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

// Stopped, the agents explore nothing more and report every lease done; what waits is dropped.
void JobDispatcher::stop_job(Job& job) {
  if (job.stopped) return;
  job.stopped = true;
  for (auto& [id, agent] : agents_) {
    if (agent.accepted_job == job.id) outbox_of(agent, job).set_stop(true);
  }
}

// Hungry agents, up to date with the leases sent to them, take what waits; for those left
// hungry, the shallowest leases are asked to split, one per hungry agent.
void JobDispatcher::balance(Job& job) {
  if (job.stopped || job.state != proto::JOB_RUNNING) return;
  std::size_t unfed = 0;
  for (auto& [id, agent] : agents_) {
    if (agent.accepted_job != job.id || !agent.hungry || agent.leases_seen != agent.leases_sent) continue;
    auto taken = job.ledger->take(id);
    if (!taken) {
      ++unfed;
      continue;
    }
    auto& lease = *outbox_of(agent, job).add_leases();
    lease.set_lease_id(taken->lease);
    to_wire(taken->subtree, *lease.mutable_subtree());
    ++agent.leases_sent;
    agent.hungry = false;
  }
  while (job.split_asked.size() < unfed) {
    const auto lease = job.ledger->lease_to_split();
    if (!lease) break;
    const auto worker = job.ledger->worker_of(*lease);
    if (!worker || !agents_.contains(*worker)) continue;
    job.split_asked.insert(*lease);
    outbox_of(agents_.at(*worker), job).add_split(*lease);
  }
}

proto::Work& JobDispatcher::outbox_of(Agent& agent, const Job& job) {
  if (!agent.outbox) {
    agent.outbox.emplace();
    agent.outbox->set_job_id(job.id);
  }
  return *agent.outbox;
}

AgentWork JobDispatcher::work_for(std::uint64_t agent_id) {
  std::lock_guard lock(mutex_);
  AgentWork work;
  auto found = agents_.find(agent_id);
  if (found == agents_.end()) return work;
  Agent& agent = found->second;
  Job* job = current_job();
  // An ended job's last word (stop) goes out even when no job runs now; a new job's offer
  // replaces it (the agent drops the old job's subtrees at the offer).
  if (job != nullptr && agent.offered_job != job->id) {
    agent.offered_job = job->id;
    agent.outbox.reset();
    proto::JobOffer offer;
    offer.set_job_id(job->id);
    offer.set_subject(job->settings.exploration.subject);
    for (const auto& arg : job->settings.exploration.args) offer.add_args(arg);
    offer.set_sha256(job->settings.sha256);
    offer.set_run_timeout_ms(static_cast<std::uint64_t>(job->settings.run_timeout.count()));
    *offer.mutable_settings() = job->submitted;
    work.offer = std::move(offer);
    return work;
  }
  if (!agent.outbox) return work;
  if (job != nullptr && agent.outbox->job_id() == job->id && agent.accepted_job != job->id) return work;
  work.work = std::move(agent.outbox);
  agent.outbox.reset();
  return work;
}

void JobDispatcher::tick(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (Job* job = current_job()) {
    const auto limit = job->settings.time_limit;
    if (limit.count() > 0 && now - job->started >= limit) stop_job(*job);
    finish_if_done(*job);
  }
  start_next_job(now);
  notify();
}

void JobDispatcher::start_next_job(Clock::time_point now) {
  while (running_job_ == 0 && !queue_.empty()) {
    Job& job = *jobs_.at(queue_.front());
    queue_.pop_front();
    job.ledger = std::make_unique<SubtreeLedger>();
    job.state = proto::JOB_RUNNING;
    job.started = now;
    running_job_ = job.id;
    spdlog::info("job {} running", job.id);
  }
}

engine::Stats JobDispatcher::stats_of(const Job& job) const {
  engine::Stats stats = job.ledger->stats();
  // Leases not done yet add their figures so far; their classes may overlap: a share of the
  // final count, exact once every lease is done.
  for (const auto& [lease, live] : job.live) stats += live;
  return stats;
}

void JobDispatcher::finish_if_done(Job& job) {
  if (job.state != proto::JOB_RUNNING) return;
  const bool over = job.ledger->finished() || (job.stopped && job.ledger->out() == 0);
  if (!over) return;
  Verdict verdict = Verdict::kCompleteNoBug;
  if (!job.bugs.empty()) {
    verdict = Verdict::kBugFound;
  } else if (job.stopped || job.incomplete || !job.ledger->finished()) {
    verdict = Verdict::kLimitReached;
  }
  job.state = endings::row_of(verdict).state;
  job.ended = Clock::now();
  running_job_ = 0;
  spdlog::info("job {} ended: {}", job.id, proto::JobState_Name(job.state));
  start_next_job(job.ended);
}

void JobDispatcher::fail_job(Job& job, const std::string& error) {
  if (is_final(job.state)) return;
  spdlog::error("job {} failed: {}", job.id, error);
  job.error = error;
  if (job.state == proto::JOB_RUNNING) stop_job(job);
  job.state = proto::JOB_FAILED;
  if (running_job_ == job.id) running_job_ = 0;
  job.ended = Clock::now();
  std::erase(queue_, job.id);
  start_next_job(job.ended);
}

JobDispatcher::Job* JobDispatcher::current_job() {
  if (running_job_ == 0) return nullptr;
  return jobs_.at(running_job_).get();
}

const JobDispatcher::Job* JobDispatcher::find_job(std::uint64_t job_id) const {
  const auto found = jobs_.find(job_id);
  return found == jobs_.end() ? nullptr : found->second.get();
}

bool JobDispatcher::wait_until_over(std::uint64_t job_id, Clock::time_point deadline) const {
  std::unique_lock lock(mutex_);
  // Every change of a job's state ends with notify().
  return changed_.wait_until(lock, deadline, [&] {
    const Job* job = find_job(job_id);
    return job == nullptr || is_final(job->state);
  });
}

std::optional<proto::JobProgress> JobDispatcher::progress(std::uint64_t job_id) const {
  std::lock_guard lock(mutex_);
  const Job* job = find_job(job_id);
  if (job == nullptr) return std::nullopt;
  proto::JobProgress progress;
  progress.set_job_id(job_id);
  progress.set_state(job->state);
  progress.set_error(job->error);
  for (const auto& refusal : job->refusals) progress.add_refusals(refusal);
  if (!job->ledger) return progress;
  const auto stats = stats_of(*job);
  progress.set_paths(stats.paths);
  progress.set_sleep_blocked(stats.sleep_blocked);
  progress.set_transitions(stats.transitions);
  progress.set_executed_steps(stats.executed_steps);
  progress.set_classes(stats.classes);
  progress.set_bugs(job->bugs.size());
  progress.set_outstanding(job->ledger->out());
  progress.set_frontier(job->ledger->waiting());
  progress.set_subtrees(job->ledger->takings());
  std::uint32_t agents = 0;
  for (const auto id : job->accepted_by) agents += agents_.contains(id) ? 1 : 0;
  progress.set_agents(agents);
  const auto until = is_final(job->state) ? job->ended : Clock::now();
  progress.set_elapsed_seconds(std::chrono::duration<double>(until - job->started).count());
  if (is_final(job->state)) {
    for (const auto& warning : job->warnings) progress.add_warnings(warning);
  }
  return progress;
}

std::vector<Bug> JobDispatcher::bugs(std::uint64_t job_id) const {
  std::lock_guard lock(mutex_);
  const Job* job = find_job(job_id);
  if (job == nullptr) return {};
  return job->bugs;
}

void JobDispatcher::notify() {
  ++generation_;
  changed_.notify_all();
}

std::uint64_t JobDispatcher::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

void JobDispatcher::wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return generation_ != seen; });
}

}  // namespace exocheck::coordinator
