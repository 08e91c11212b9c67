#include "job_dispatcher.hpp"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "exocheck/coordinator/subtree_wire.hpp"

namespace exocheck::coordinator {

namespace {

// Reports acked at once at most every this many (see accept_report).
constexpr std::uint64_t kReportsPerAck = 8;

bool is_final(proto::JobState state) {
  return state != proto::JOB_QUEUED && state != proto::JOB_RUNNING;
}

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

JobDispatcher::JobDispatcher(DispatcherOptions options) : options_(options) {}

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
  record(id, [&](proto::JournalRecord& r) { *r.mutable_submitted() = request; });
  start_next_job(Clock::now());
  write_journal();
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
    job.ended = job.started = Clock::now();
    record(job_id, [&](proto::JournalRecord& r) { r.mutable_ended()->set_state(job.state); });
  } else {
    stop_job(job);
    finish_if_done(job);
  }
  spdlog::info("job {} cancelled", job_id);
  write_journal();
  notify();
  return true;
}

std::uint64_t JobDispatcher::attach_agent(const proto::AgentHello& hello) {
  std::lock_guard lock(mutex_);
  const auto id = next_agent_id_++;
  Agent agent;
  agent.name = hello.name();
  agent.slots = std::max<std::uint32_t>(hello.slots(), 1);
  // An agent without an instance (an older build) is an instance of its own on every stream.
  agent.worker = worker_of_instance(hello.instance().empty() ? "stream-" + std::to_string(id) : hello.instance());
  agent.hello = hello;
  // Subtrees of a job that is over (it ended while the agent was away), or of another coordinator:
  // explored for nobody.
  const Job* job = current_job();
  if (hello.job_id() != 0 &&
      (job == nullptr || job->id != hello.job_id() || hello.coordinator_instance() != options_.instance)) {
    agent.outbox.emplace();
    agent.outbox->set_job_id(hello.job_id());
    agent.outbox->set_stop(true);
  }
  agent.id = id;
  stream_of_worker_[agent.worker] = id;  // its newest stream
  poke(agents_.emplace(id, std::move(agent)).first->second);
  spdlog::info("agent {} ({}) attached with {} slots, holding {} subtrees of job {}", id, hello.name(), hello.slots(),
               hello.held_size(), hello.job_id());
  notify();
  return id;
}

std::uint64_t JobDispatcher::worker_of_instance(const std::string& instance) {
  const auto [it, added] = workers_.emplace(instance, workers_.size() + 1);
  if (added) instances_.emplace(it->second, instance);
  return it->second;
}

JobDispatcher::Agent* JobDispatcher::agent_of_worker(std::uint64_t worker) {
  const auto stream = stream_of_worker_.find(worker);
  return stream == stream_of_worker_.end() ? nullptr : &agents_.at(stream->second);
}

void JobDispatcher::detach_agent(std::uint64_t agent_id) {
  std::lock_guard lock(mutex_);
  const auto found = agents_.find(agent_id);
  if (found == agents_.end()) return;
  const auto worker = found->second.worker;
  agents_.erase(found);
  hungry_.erase(agent_id);
  if (stream_of_worker_[worker] == agent_id) {
    stream_of_worker_.erase(worker);
    for (const auto& [id, other] : agents_) {
      if (other.worker == worker) stream_of_worker_[worker] = id;
    }
  }
  spdlog::info("agent {} detached", agent_id);
  // The same agent may already be back on another stream.
  if (agent_of_worker(worker) == nullptr) {
    if (options_.reattach_grace.count() == 0) {
      release_leases_of(worker);
    } else {
      absent_since_.emplace(worker, Clock::now());
    }
  }
  if (Job* job = current_job()) {
    fail_when_nobody_can_run(*job);
    if (job->state == proto::JOB_RUNNING) {
      balance(*job);
      finish_if_done(*job);
    }
  }
  write_journal();
  notify();
}

void JobDispatcher::record_check(std::uint64_t agent_id, const proto::JobCheck& check) {
  std::lock_guard lock(mutex_);
  auto agent = agents_.find(agent_id);
  Job* job = current_job();
  if (agent == agents_.end() || job == nullptr || job->id != check.job_id()) return;
  if (check.accepted()) {
    agent->second.accepted_job = job->id;
    const bool back =
        agent->second.hello.job_id() == job->id && agent->second.hello.coordinator_instance() == options_.instance;
    agent->second.leases_seen = back ? agent->second.hello.leases_seen() : 0;
    set_hungry(agent->second, !back || agent->second.hello.held_size() == 0);
    job->accepted_by.insert(agent_id);
    reattach(agent->second, *job);
    balance(*job);
  } else {
    const auto line = "agent " + agent->second.name + ": " + check.reason();
    spdlog::warn("job {} refused by {}", job->id, line);
    job->refusals.push_back(line);
    job->refused_by.insert(agent_id);
    fail_when_nobody_can_run(*job);
  }
  write_journal();
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

// Stopped, the agents explore nothing more and report every lease done; what waits is dropped.
void JobDispatcher::stop_job(Job& job) {
  if (job.stopped) return;
  job.stopped = true;
  record(job.id, [&](proto::JournalRecord& r) { r.set_stopped(true); });
  for (auto& [id, agent] : agents_) {
    if (agent.accepted_job == job.id) outbox_of(agent, job).set_stop(true);
  }
}

AgentWork JobDispatcher::work_for(std::uint64_t agent_id) {
  std::lock_guard lock(mutex_);
  AgentWork work;
  auto found = agents_.find(agent_id);
  if (found == agents_.end()) return work;
  Agent& agent = found->second;
  Job* job = current_job();
  // An ended job's last word (a stop, an ack) goes out first, even when no job runs now.
  if (agent.outbox && (job == nullptr || agent.outbox->job_id() != job->id)) {
    work.work = std::move(agent.outbox);
    agent.outbox.reset();
    return work;
  }
  if (job != nullptr && agent.offered_job != job->id) {
    agent.offered_job = job->id;
    proto::JobOffer offer;
    offer.set_job_id(job->id);
    offer.set_subject(job->settings.exploration.subject);
    for (const auto& arg : job->settings.exploration.args) offer.add_args(arg);
    offer.set_sha256(job->settings.sha256);
    offer.set_run_timeout_ms(static_cast<std::uint64_t>(job->settings.run_timeout.count()));
    *offer.mutable_settings() = job->submitted;
    offer.set_coordinator_instance(options_.instance);
    work.offer = std::move(offer);
    return work;
  }
  if (!agent.outbox || agent.accepted_job != job->id) return work;
  work.work = std::move(agent.outbox);
  agent.outbox.reset();
  return work;
}

void JobDispatcher::tick(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  std::vector<std::uint64_t> gone;
  for (const auto& [worker, since] : absent_since_) {
    if (now - since >= options_.reattach_grace) gone.push_back(worker);
  }
  for (const auto worker : gone) release_leases_of(worker);
  if (Job* job = current_job()) {
    const auto limit = job->settings.time_limit;
    if (limit.count() > 0 && now - job->started >= limit) stop_job(*job);
    balance(*job);
    finish_if_done(*job);
  }
  start_next_job(now);
  write_journal();
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
    for (auto& [id, agent] : agents_) poke(agent);  // its offer
    const auto unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch() - (Clock::now() - now));
    record(job.id,
           [&](proto::JournalRecord& r) { r.set_started_unix_ms(static_cast<std::uint64_t>(unix_ms.count())); });
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
  record_end(job);
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
  if (job.ledger == nullptr) job.started = job.ended;
  std::erase(queue_, job.id);
  record_end(job);
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
  progress.set_elapsed_seconds(
      job->restored_elapsed.value_or(std::chrono::duration<double>(until - job->started).count()));
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
  for (const auto id : poked_) {
    const auto agent = agents_.find(id);
    if (agent == agents_.end() || !agent->second.poked) continue;
    agent->second.poked = false;
    ++agent->second.work_generation;
    agent->second.woken->notify_all();
  }
  poked_.clear();
}

void JobDispatcher::poke(Agent& agent) {
  if (agent.poked) return;
  agent.poked = true;
  poked_.push_back(agent.id);
}

void JobDispatcher::set_hungry(Agent& agent, bool hungry) {
  agent.hungry = hungry;
  if (hungry) {
    hungry_.insert(agent.id);
  } else {
    hungry_.erase(agent.id);
  }
}

void JobDispatcher::wake_writer(std::uint64_t agent_id) {
  std::lock_guard lock(mutex_);
  const auto found = agents_.find(agent_id);
  if (found == agents_.end()) return;
  ++found->second.work_generation;
  found->second.woken->notify_all();
}

std::uint64_t JobDispatcher::work_generation(std::uint64_t agent_id) const {
  std::lock_guard lock(mutex_);
  const auto found = agents_.find(agent_id);
  return found == agents_.end() ? 0 : found->second.work_generation;
}

void JobDispatcher::wait_for_work(std::uint64_t agent_id, std::uint64_t seen, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  const auto found = agents_.find(agent_id);
  if (found == agents_.end()) return;
  const auto woken = found->second.woken;  // the agent may detach while this waits
  woken->wait_for(lock, timeout, [&] {
    const auto agent = agents_.find(agent_id);
    return agent == agents_.end() || agent->second.work_generation != seen;
  });
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
