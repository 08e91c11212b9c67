// JobDispatcher's journal compacted: a long job journals every lease taken, split and done and
// every backtrack request routed (megabytes a second under optimal DPOR), while what a restart
// needs is the present state, which the ledger keeps bounded by the leases out. So once the
// journal has grown past twice its last compacted size, it is written anew as, per job, the
// records that rebuild that job as it is now: its submission, its start, its bugs, one JobImage
// (its ledger and what its leases' ends brought), its stop and its end, then the requests still routed.
#include <chrono>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "exocheck/coordinator/bug_wire.hpp"
#include "job_dispatcher.hpp"
#include "ledger_image.hpp"

namespace exocheck::coordinator {

void JobDispatcher::compact_journal_if_grown() {
  if (options_.journal == nullptr || replaying_) return;
  const auto bytes = options_.journal->bytes();
  if (bytes < options_.compact_at_bytes || bytes < 2 * compacted_bytes_) return;
  std::string compacted;
  for (const auto& [id, job] : jobs_) frame_image(*job, compacted);
  // Which reports were applied, with the newest job (a record belongs to a job).
  if (!jobs_.empty()) {
    proto::JournalEntry applied;
    for (const auto& [instance, seq] : applied_reports_) {
      auto& record = *applied.add_records();
      record.set_job_id(jobs_.rbegin()->first);
      record.mutable_applied()->set_instance(instance);
      record.mutable_applied()->set_seq(seq);
    }
    frame(applied, compacted);
  }
  try {
    options_.journal->rewrite(compacted);
  } catch (const std::exception& error) {
    spdlog::error("{}: the journal goes on growing", error.what());
    compacted_bytes_ = bytes;  // not tried again before it doubles
    return;
  }
  const bool first = compacted_bytes_ == 0;
  compacted_bytes_ = options_.journal->bytes();
  // Every few seconds in a long optimal job: said once, then for debugging only.
  spdlog::log(first ? spdlog::level::info : spdlog::level::debug, "journal compacted from {} to {} bytes{}", bytes,
              compacted_bytes_, first ? " (from now on logged at debug level)" : "");
}

// The requests still routed go one to an entry, each copied in turn: thousands may be held in a
// long optimal job, and a copy of them all at once was the coordinator's peak of memory.
void JobDispatcher::frame_image(const Job& job, std::string& out) const {
  proto::JournalEntry entry;
  const auto add = [&] {
    auto& record = *entry.add_records();
    record.set_job_id(job.id);
    return &record;
  };
  *add()->mutable_submitted() = job.request;
  if (job.ledger) {
    const auto since = Clock::now() - job.started;
    const auto unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch() - since);
    add()->set_started_unix_ms(static_cast<std::uint64_t>(unix_ms.count()));
    // In the order found, so that they keep their numbers.
    for (std::size_t i = 0; i < job.bugs.size(); ++i) to_wire(job.bugs.at(i), 0, *add()->mutable_bug());
    auto& image = *add()->mutable_image();
    to_wire(job.ledger->image(), *image.mutable_ledger(), [&](std::uint64_t worker) { return instances_.at(worker); });
    image.set_incomplete(job.incomplete);
    for (const auto& warning : job.warnings) image.add_warnings(warning);
    if (job.reference) *image.mutable_reference() = *job.reference;
    for (const auto& state : job.determinism.seen()) {
      auto& lines = *image.add_determinism_states();
      for (const auto& line : state) lines.add_lines(line);
    }
    if (job.nearest_passing) {
      *image.mutable_nearest_passing() = job.nearest_passing->first;
      image.set_nearest_shared(job.nearest_passing->second);
    }
    to_wire(job.bugs.tallies(), *image.mutable_own_bug_counts());
    if (job.stopped) add()->set_stopped(true);
  }
  if (is_final(job.state)) {
    auto& ended = *add()->mutable_ended();
    ended.set_state(job.state);
    ended.set_error(job.error);
    ended.set_elapsed_seconds(
        job.restored_elapsed.value_or(std::chrono::duration<double>(job.ended - job.started).count()));
  }
  frame(entry, out);
  for (const auto& [lease, requests] : job.routed) {
    for (const auto& routed : requests) {
      entry.Clear();
      auto& kept = *add()->mutable_routed();
      kept.set_lease_id(lease);
      kept.set_request(routed.request);
      frame(entry, out);
    }
  }
}

void JobDispatcher::apply_image(Job& job, const proto::JobImage& image) {
  if (!job.ledger) {
    throw std::runtime_error("journal: the image of job " + std::to_string(job.id) + " before its start");
  }
  job.ledger = std::make_unique<SubtreeLedger>(
      image_from_wire(image.ledger(), [&](const std::string& instance) { return worker_of_instance(instance); }));
  job.incomplete = image.incomplete();
  for (const auto& warning : image.warnings()) note_warning(job, warning);
  if (image.has_reference()) job.reference = image.reference();
  for (const auto& state : image.determinism_states()) {
    job.determinism.observe({state.lines().begin(), state.lines().end()});
  }
  if (image.has_nearest_passing()) job.nearest_passing.emplace(image.nearest_passing(), image.nearest_shared());
  const auto counts = tallies_from_wire(image.own_bug_counts());
  if (counts.size() > job.bugs.size()) {
    throw std::runtime_error("journal: the image of job " + std::to_string(job.id) + " counts bugs it does not hold");
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    job.bugs.count(i, counts[i].paths, counts[i].classes, counts[i].counted_classes);
  }
}

}  // namespace exocheck::coordinator
