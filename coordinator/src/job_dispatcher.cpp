#include "job_dispatcher.hpp"

#include <stdexcept>
#include <utility>

#include <spdlog/spdlog.h>

namespace exocheck::coordinator {

namespace {

// Leases kept out per slot: one running and one waiting, so a slot never idles for a round trip.
constexpr std::size_t kLeasesPerSlot = 2;

bool is_final(proto::JobState state) {
  return state != proto::JOB_QUEUED && state != proto::JOB_RUNNING;
}

EventSpan events_of(const proto::LeaseResult& result) {
  return {result.events().data(), static_cast<std::size_t>(result.events().size())};
}

}  // namespace

JobDispatcher::JobDispatcher(std::chrono::milliseconds lease_slack) : lease_slack_(lease_slack) {}

JobDispatcher::~JobDispatcher() = default;

std::uint64_t JobDispatcher::submit(const proto::SubmitRequest& request) {
  auto job = std::make_unique<Job>();
  job->settings = to_job_settings(request);
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
    job.session->stop();
    finish_if_done(job);
  }
  spdlog::info("job {} cancelled", job_id);
  notify();
  return true;
}

std::uint64_t JobDispatcher::attach_agent(const std::string& name, std::uint32_t slots) {
  std::lock_guard lock(mutex_);
  const auto id = next_agent_id_++;
  agents_.emplace(id, Agent{name, std::max<std::uint32_t>(slots, 1), 0, 0, 0});
  spdlog::info("agent {} ({}) attached with {} slots", id, name, slots);
  notify();
  return id;
}

void JobDispatcher::detach_agent(std::uint64_t agent_id) {
  std::lock_guard lock(mutex_);
  abandon_leases_of(agent_id);
  agents_.erase(agent_id);
  spdlog::info("agent {} detached", agent_id);
  if (Job* job = current_job()) fail_when_nobody_can_run(*job);
  notify();
}

void JobDispatcher::abandon_leases_of(std::uint64_t agent_id) {
  Job* job = current_job();
  for (auto it = leases_.begin(); it != leases_.end();) {
    if (it->second.agent_id != agent_id) {
      ++it;
      continue;
    }
    if (job != nullptr) job->session->abandon(it->second.session_id);
    it = leases_.erase(it);
  }
  if (auto agent = agents_.find(agent_id); agent != agents_.end()) agent->second.outstanding = 0;
}

void JobDispatcher::record_check(std::uint64_t agent_id, const proto::JobCheck& check) {
  std::lock_guard lock(mutex_);
  auto agent = agents_.find(agent_id);
  Job* job = current_job();
  if (agent == agents_.end() || job == nullptr || job->id != check.job_id()) return;
  if (check.accepted()) {
    agent->second.accepted_job = job->id;
    job->accepted_by.insert(agent_id);
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
  if (job.refused_by.empty()) return;
  for (const auto& [id, agent] : agents_) {
    if (!job.refused_by.contains(id)) return;
  }
  std::string reasons;
  for (const auto& refusal : job.refusals) reasons += (reasons.empty() ? "" : "; ") + refusal;
  fail_job(job, "no agent can run the subject: " + reasons);
}

std::optional<std::string> JobDispatcher::launch_failure(const proto::LeaseResult& result, const Agent& agent) const {
  if (result.result().status() != proto::RUN_LAUNCH_FAILED) return std::nullopt;
  return "agent " + agent.name + " could not run the subject: " + result.result().detail();
}

std::size_t JobDispatcher::accept_results(std::uint64_t agent_id, const proto::ResultBatch& batch) {
  std::lock_guard lock(mutex_);
  Job* job = current_job();
  auto agent = agents_.find(agent_id);
  if (job == nullptr || agent == agents_.end()) return 0;
  std::size_t accepted = 0;
  for (const auto& result : batch.results()) {
    const auto lease = leases_.find(result.lease_id());
    if (lease == leases_.end() || lease->second.agent_id != agent_id) continue;
    const auto session_id = lease->second.session_id;
    leases_.erase(lease);
    --agent->second.outstanding;
    if (auto failure = launch_failure(result, agent->second)) {
      // Every agent runs the same binary (same SHA-256): every run would fail alike.
      job->session->abandon(session_id);
      fail_job(*job, *failure);
      break;
    }
    if (job->session->complete(session_id, events_of(result), result.result())) ++accepted;
  }
  if (job->state == proto::JOB_RUNNING) finish_if_done(*job);
  notify();
  return accepted;
}

AgentWork JobDispatcher::work_for(std::uint64_t agent_id) {
  std::lock_guard lock(mutex_);
  AgentWork work;
  auto found = agents_.find(agent_id);
  Job* job = current_job();
  if (found == agents_.end() || job == nullptr) return work;
  Agent& agent = found->second;
  if (agent.offered_job != job->id) {
    agent.offered_job = job->id;
    proto::JobOffer offer;
    offer.set_job_id(job->id);
    offer.set_subject(job->settings.exploration.subject);
    for (const auto& arg : job->settings.exploration.args) offer.add_args(arg);
    offer.set_sha256(job->settings.sha256);
    offer.set_run_timeout_ms(static_cast<std::uint64_t>(job->settings.run_timeout.count()));
    work.offer = std::move(offer);
    return work;
  }
  if (agent.accepted_job != job->id) return work;
  // Refill in batches: each message costs the coordinator more than the lease it carries. While
  // every slot has a run and most have one waiting, wait until half a slot-count is free.
  const std::size_t window = agent.slots * kLeasesPerSlot;
  const bool slot_may_idle = agent.outstanding < agent.slots;
  const bool half_free = agent.outstanding + std::max<std::size_t>(1, agent.slots / 2) <= window;
  if (!slot_may_idle && !half_free) return work;
  const auto deadline = lease_deadline(Clock::now(), job->settings.run_timeout, lease_slack_);
  while (agent.outstanding < window) {
    auto next = job->session->next();
    if (!next) break;
    const auto lease_id = next_lease_id_++;
    leases_.emplace(lease_id, LeaseHeld{next->id, agent_id, deadline});
    ++agent.outstanding;
    auto& lease = work.leases.emplace_back();
    lease.set_lease_id(lease_id);
    lease.set_job_id(job->id);
    *lease.mutable_request() = std::move(next->request);
  }
  return work;
}

void JobDispatcher::tick(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (Job* job = current_job()) {
    for (auto it = leases_.begin(); it != leases_.end();) {
      if (it->second.deadline > now) {
        ++it;
        continue;
      }
      spdlog::warn("lease {} of job {} passed its deadline: issued again", it->first, job->id);
      job->session->abandon(it->second.session_id);
      if (auto agent = agents_.find(it->second.agent_id); agent != agents_.end()) --agent->second.outstanding;
      it = leases_.erase(it);
    }
    const auto limit = job->settings.time_limit;
    if (limit.count() > 0 && now - job->started >= limit) job->session->stop();
    finish_if_done(*job);
  }
  start_next_job(now);
  notify();
}

void JobDispatcher::start_next_job(Clock::time_point now) {
  while (running_job_ == 0 && !queue_.empty()) {
    Job& job = *jobs_.at(queue_.front());
    queue_.pop_front();
    job.session = std::make_unique<ExplorationSession>(job.settings.exploration);
    job.state = proto::JOB_RUNNING;
    job.started = now;
    running_job_ = job.id;
    spdlog::info("job {} running", job.id);
  }
}

void JobDispatcher::finish_if_done(Job& job) {
  if (job.state != proto::JOB_RUNNING || !job.session->finished()) return;
  job.state = endings::row_of(job.session->verdict()).state;
  job.ended = Clock::now();
  running_job_ = 0;
  spdlog::info("job {} ended: {}", job.id, proto::JobState_Name(job.state));
  start_next_job(job.ended);
}

void JobDispatcher::fail_job(Job& job, const std::string& error) {
  if (is_final(job.state)) return;
  spdlog::error("job {} failed: {}", job.id, error);
  job.error = error;
  job.state = proto::JOB_FAILED;
  if (job.session) job.session->stop();
  if (running_job_ == job.id) {
    leases_.clear();
    for (auto& [id, agent] : agents_) agent.outstanding = 0;
    running_job_ = 0;
  }
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
  if (!job->session) return progress;
  const auto now = job->session->progress();
  progress.set_paths(now.stats.paths);
  progress.set_sleep_blocked(now.stats.sleep_blocked);
  progress.set_transitions(now.stats.transitions);
  progress.set_executed_steps(now.stats.executed_steps);
  progress.set_classes(now.stats.classes);
  progress.set_bugs(now.bugs);
  progress.set_outstanding(now.outstanding);
  progress.set_frontier(now.frontier);
  std::uint32_t agents = 0;
  for (const auto id : job->accepted_by) agents += agents_.contains(id) ? 1 : 0;
  progress.set_agents(agents);
  const auto until = is_final(job->state) ? job->ended : Clock::now();
  progress.set_elapsed_seconds(std::chrono::duration<double>(until - job->started).count());
  if (is_final(job->state)) {
    for (const auto& warning : job->session->warnings()) progress.add_warnings(warning);
  }
  return progress;
}

std::vector<Bug> JobDispatcher::bugs(std::uint64_t job_id) const {
  std::lock_guard lock(mutex_);
  const Job* job = find_job(job_id);
  if (job == nullptr || !job->session) return {};
  return job->session->bugs();
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
