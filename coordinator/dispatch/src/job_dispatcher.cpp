// The jobs: submitted, queued, started, stopped at their bounds, ended; their progress and bugs.
#include <utility>

#include <spdlog/spdlog.h>

#include "job_dispatcher.hpp"

namespace exocheck::coordinator {

JobDispatcher::JobDispatcher(DispatcherOptions options) : options_(options) {}

JobDispatcher::~JobDispatcher() = default;

std::uint64_t JobDispatcher::submit(const proto::SubmitRequest& request) {
  auto job = std::make_unique<Job>(request, to_job_settings(request));
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
    job_ended_ = true;
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

// Stopped, the agents explore nothing more and report every lease done; what waits is dropped.
void JobDispatcher::stop_job(Job& job) {
  if (job.stopped) return;
  job.stopped = true;
  record(job.id, [&](proto::JournalRecord& r) { r.set_stopped(true); });
  for (auto& [id, agent] : agents_) {
    if (agent.accepted_job == job.id) outbox_of(agent, job).set_stop(true);
  }
}

void JobDispatcher::tick(Clock::time_point now) {
  std::lock_guard lock(mutex_);
  poke_owed(now);
  std::vector<std::uint64_t> gone;
  for (const auto& [worker, since] : absent_since_) {
    if (now - since >= options_.reattach_grace) gone.push_back(worker);
  }
  for (const auto worker : gone) release_leases_of(worker);
  if (Job* job = current_job()) {
    const auto limit = job->settings.exploration.time_limit;
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
    job.ledger = std::make_unique<SubtreeLedger>(job.settings.exploration.root_prefix);
    job.state = proto::JOB_RUNNING;
    job.started = now;
    running_job_ = job.id;
    for (auto& [id, agent] : agents_) {
      poke(agent);  // its offer
      // Hunger for another job says nothing about this one: the agent says it again once it
      // accepts (record_check), and splits are asked by the count of hungry agents (ask_splits).
      set_hungry(agent, false);
    }
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
  stats += job.live.sum();
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
  job_ended_ = true;
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
  job_ended_ = true;
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
  // Every change of a job's state ends with notify(), which wakes `ended_` when a job ended.
  return ended_.wait_until(lock, deadline, [&] {
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
  progress.set_bug_paths(stats.bugs);
  progress.set_step_limited(stats.step_limited);
  progress.set_analysed_in_part(stats.analysed_in_part);
  progress.set_cut_for_memory(stats.cut_for_memory);
  progress.set_faulted(stats.faulted);
  progress.set_sampled(stats.sampled);
  progress.set_outstanding(job->ledger->out());
  progress.set_frontier(job->ledger->waiting());
  progress.set_subtrees(job->ledger->takings());
  progress.set_agents(static_cast<std::uint32_t>(job->accepted_by.size()));
  const auto until = is_final(job->state) ? job->ended : Clock::now();
  progress.set_elapsed_seconds(
      job->restored_elapsed.value_or(std::chrono::duration<double>(until - job->started).count()));
  if (is_final(job->state)) {
    progress.set_complete(job->ledger->finished() && !job->stopped && !job->incomplete);
    for (const auto& warning : job->warnings) progress.add_warnings(warning);
    const auto traces = job->settings.exploration.bug_traces;
    if (job->bugs.size() > traces) progress.add_warnings(bugs_not_kept_warning(traces, job->bugs.size() - traces));
  }
  return progress;
}

std::vector<Bug> JobDispatcher::bugs(std::uint64_t job_id) const {
  std::lock_guard lock(mutex_);
  const Job* job = find_job(job_id);
  if (job == nullptr) return {};
  auto bugs = job->bugs.bugs();
  if (!job->ledger) return bugs;
  // The agents' counts are the leases' the ledger counts; a bug the coordinator found itself
  // (check_reference) has its own besides.
  const auto& figures = job->ledger->bugs();
  for (std::size_t i = 0; i < bugs.size(); ++i) {
    const auto counted = figures.find(bugs[i].signature.key());
    if (counted == figures.end()) continue;
    auto classes = job->bugs.classes_of(i);
    classes.insert(counted->second.classes.begin(), counted->second.classes.end());
    bugs[i].paths += counted->second.paths;
    bugs[i].classes = classes.size() + job->bugs.counted_classes_of(i) + counted->second.counted_classes;
  }
  return bugs;
}

std::optional<std::pair<proto::TraceFile, std::uint64_t>> JobDispatcher::nearest_passing(std::uint64_t job_id) const {
  std::lock_guard lock(mutex_);
  const Job* job = find_job(job_id);
  return job != nullptr ? job->nearest_passing : std::nullopt;
}

}  // namespace exocheck::coordinator
