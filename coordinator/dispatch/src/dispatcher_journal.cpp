// JobDispatcher's journal: every decision it makes is recorded, written under the lock before
// anything it decided reaches an agent or a client, and replayed on a restart, so that a
// coordinator that died resumes its jobs where it was.
#include <stdexcept>
#include <string>

#include <spdlog/spdlog.h>

#include "job_dispatcher.hpp"

namespace exocheck::coordinator {

void JobDispatcher::record_end(const Job& job) {
  record(job.id, [&](proto::JournalRecord& r) {
    auto& ended = *r.mutable_ended();
    ended.set_state(job.state);
    ended.set_error(job.error);
    ended.set_elapsed_seconds(std::chrono::duration<double>(job.ended - job.started).count());
  });
}

void JobDispatcher::record(std::uint64_t job_id, const std::function<void(proto::JournalRecord&)>& fill) {
  if (options_.journal == nullptr || replaying_) return;
  auto& added = *pending_.add_records();
  added.set_job_id(job_id);
  fill(added);
}

// At the end of every operation, under the lock: its records go to the journal in one entry,
// before anything it decided can reach an agent or a client.
void JobDispatcher::write_journal() {
  if (pending_.records_size() == 0) return;
  try {
    options_.journal->append(pending_);
  } catch (const std::exception& error) {
    spdlog::error("{}: a restart would not resume from here", error.what());
  }
  pending_.Clear();
  compact_journal_if_grown();
}

void JobDispatcher::restore(const std::vector<proto::JournalEntry>& entries) {
  std::lock_guard lock(mutex_);
  replaying_ = true;
  std::size_t records = 0;
  for (const auto& entry : entries) {
    for (const auto& record : entry.records()) {
      apply_record(record);
      ++records;
    }
  }
  replaying_ = false;
  // Every agent is away until it comes back: what it holds waits for it, for the grace.
  const auto now = Clock::now();
  if (Job* job = current_job()) {
    for (const auto& [instance, worker] : workers_) {
      if (!job->ledger->held_by(worker).empty()) absent_since_.emplace(worker, now);
    }
  }
  spdlog::info("journal: {} records replayed: {} jobs, job {} running", records, jobs_.size(), running_job_);
  compact_journal_if_grown();
  notify();
}

void JobDispatcher::apply_record(const proto::JournalRecord& record) {
  const auto id = record.job_id();
  if (record.has_submitted()) {
    auto job = std::make_unique<Job>(record.submitted(), to_job_settings(record.submitted()));
    job->id = id;
    jobs_.emplace(id, std::move(job));
    queue_.push_back(id);
    next_job_id_ = std::max(next_job_id_, id + 1);
    return;
  }
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) throw std::runtime_error("journal: a record of job " + std::to_string(id) + " before it");
  Job& job = *found->second;
  switch (record.body_case()) {
    case proto::JournalRecord::kStartedUnixMs: {
      std::erase(queue_, id);
      job.ledger = std::make_unique<SubtreeLedger>(job.settings.exploration.root_prefix);
      job.state = proto::JOB_RUNNING;
      const auto since =
          std::chrono::system_clock::now().time_since_epoch() - std::chrono::milliseconds(record.started_unix_ms());
      job.started = Clock::now() - std::chrono::duration_cast<Clock::duration>(since);
      running_job_ = id;
      break;
    }
    case proto::JournalRecord::kTaken: {
      const auto worker = worker_of_instance(record.taken());
      if (!job.ledger || !job.ledger->take(worker)) throw std::runtime_error("journal: nothing waited to be taken");
      ++job.leases_sent[worker];
      break;
    }
    case proto::JournalRecord::kSplit:
      apply_split(job, record.split());
      break;
    case proto::JournalRecord::kDone:
      apply_done(job, record.done());
      break;
    case proto::JournalRecord::kReleased:
      take_back(job, job.ledger->release(worker_of_instance(record.released())));
      break;
    case proto::JournalRecord::kReleasedLease:
      take_back(job, job.ledger->release_lease(record.released_lease()));
      break;
    case proto::JournalRecord::kBug:
      add_bug(job, record.bug());
      break;
    case proto::JournalRecord::kStopped:
      job.stopped = true;
      break;
    case proto::JournalRecord::kEnded:
      std::erase(queue_, id);
      job.state = record.ended().state();
      job.error = record.ended().error();
      job.ended = Clock::now();
      job.restored_elapsed = record.ended().elapsed_seconds();
      if (running_job_ == id) running_job_ = 0;
      break;
    case proto::JournalRecord::kRouted:
      if (record.routed().request().empty()) {
        throw std::runtime_error("journal: a routed request of job " + std::to_string(id) +
                                 " in the form of an older coordinator, which this one cannot resume");
      }
      job.routed[record.routed().lease_id()].push_back(RoutedRequest{0, record.routed().request()});
      break;
    case proto::JournalRecord::kDelivered:
      if (const auto found = job.routed.find(record.delivered().lease_id()); found != job.routed.end()) {
        forget_routed(found->second, record.delivered().count());
      }
      break;
    case proto::JournalRecord::kImage:
      apply_image(job, record.image());
      break;
    case proto::JournalRecord::kApplied:
      applied_reports_[record.applied().instance()] = record.applied().seq();
      break;
    default:
      throw std::runtime_error("journal: a record this build does not know (" +
                               std::to_string(static_cast<int>(record.body_case())) + ")");
  }
}

}  // namespace exocheck::coordinator
