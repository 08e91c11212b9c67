// The agents: streams attached and detached, their answers to offers, what goes to each, and
// their streams woken when it does.
#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "job_dispatcher.hpp"

namespace exocheck::coordinator {

std::uint64_t JobDispatcher::attach_agent(const proto::AgentHello& hello, std::function<void()> wake) {
  std::lock_guard lock(mutex_);
  const auto id = next_agent_id_++;
  Agent agent;
  agent.name = hello.name();
  agent.slots = std::max<std::uint32_t>(hello.slots(), 1);
  // An agent without an instance (an older build) is an instance of its own on every stream.
  agent.worker = worker_of_instance(hello.instance().empty() ? "stream-" + std::to_string(id) : hello.instance());
  agent.hello = hello;
  agent.wake = std::move(wake);
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
  for (auto& [id, job] : jobs_) job->accepted_by.erase(agent_id);
  if (stream_of_worker_[worker] == agent_id) {
    stream_of_worker_.erase(worker);
    for (const auto& [id, other] : agents_) {
      if (other.worker != worker) continue;
      auto& newest = stream_of_worker_[worker];
      newest = std::max(newest, id);
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

bool JobDispatcher::record_check(std::uint64_t agent_id, const proto::JobCheck& check) {
  std::lock_guard lock(mutex_);
  auto agent = agents_.find(agent_id);
  Job* job = current_job();
  if (agent == agents_.end() || job == nullptr || job->id != check.job_id()) return false;
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
  return notify(agent_id);
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
    agent.owed = false;
    return work;
  }
  if (job != nullptr && agent.offered_job != job->id) {
    agent.offered_job = job->id;
    proto::JobOffer offer;
    offer.set_job_id(job->id);
    // The submission as it was checked (to_job_settings), not encoded again from what was decoded:
    // each agent decodes the very message the coordinator accepted.
    offer.set_subject(job->request.subject());
    *offer.mutable_args() = job->request.args();
    offer.set_sha256(job->request.sha256());
    *offer.mutable_settings() = job->request.settings();
    offer.set_coordinator_instance(options_.instance);
    work.offer = std::move(offer);
    return work;
  }
  if (!agent.outbox || agent.accepted_job != job->id) return work;
  work.work = std::move(agent.outbox);
  agent.outbox.reset();
  agent.owed = false;
  return work;
}

bool JobDispatcher::notify(std::uint64_t writes_itself) {
  bool its_own = false;
  ++generation_;
  changed_.notify_all();
  if (job_ended_) {
    job_ended_ = false;
    ended_.notify_all();
  }
  for (const auto id : poked_) {
    const auto agent = agents_.find(id);
    if (agent == agents_.end() || !agent->second.poked) continue;
    agent->second.poked = false;
    if (id == writes_itself) {
      its_own = true;
      continue;
    }
    if (agent->second.wake) agent->second.wake();
  }
  poked_.clear();
  return its_own;
}

void JobDispatcher::owe(Agent& agent) {
  if (agent.owed) return;
  agent.owed = true;
  agent.owed_since = Clock::now();
  owed_.emplace_back(agent.id, agent.owed_since);
}

void JobDispatcher::poke_owed(Clock::time_point now) {
  while (!owed_.empty()) {
    const auto [id, since] = owed_.front();
    const auto agent = agents_.find(id);
    // Not when the agent has been sent what it was owed since (and is owed anew, from later).
    if (agent != agents_.end() && agent->second.owed && agent->second.owed_since == since) {
      if (now - since < kOwedAtMost) return;
      poke(agent->second);
      agent->second.owed = false;
    }
    owed_.pop_front();
  }
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

std::uint64_t JobDispatcher::generation() const {
  std::lock_guard lock(mutex_);
  return generation_;
}

void JobDispatcher::wait_for_change(std::uint64_t seen, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return generation_ != seen; });
}

}  // namespace exocheck::coordinator
