#include "subtree_sessions.hpp"

#include <algorithm>
#include <utility>

#include "exocheck/coordinator/bug_wire.hpp"
#include "exocheck/coordinator/subtree_wire.hpp"

namespace exocheck::agent {

namespace {

// Each lease's distinct bugs go to the coordinator as they are found (and again with a shorter
// run), their counts with the lease's end: the coordinator groups and counts them across leases.
// The job's leases held here share one budget of wakeup-tree events, as one explorer's workers
// do: with a budget each, an agent's memory was as many budgets as it had leases alive.
coordinator::ExplorationOptions for_leases(coordinator::ExplorationOptions options,
                                           std::atomic<std::uint64_t>& wakeup_events) {
  options.hands_over_bugs = true;
  options.explorer.shared_wakeup_events = &wakeup_events;
  return options;
}

}  // namespace

SubtreeSessions::SubtreeSessions(coordinator::ExplorationOptions options, std::function<void()> urgent,
                                 std::size_t report_bytes, std::size_t request_bytes_for_a_report)
    : options_(for_leases(std::move(options), wakeup_events_)),
      on_urgent_(std::move(urgent)),
      report_bytes_(report_bytes),
      request_bytes_for_a_report_(request_bytes_for_a_report) {}

void SubtreeSessions::mark_urgent() {
  if (urgent_) return;
  urgent_ = true;
  if (on_urgent_) on_urgent_();
}

// Drops first: a lease dropped and granted again in one message (the coordinator released it
// while this agent was away, then gave it back) is explored anew, not dropped.
// A stop first: what follows takes the lock, which may wait for a result's analysis to give up.
void SubtreeSessions::apply(const proto::Work& work) {
  if (work.stop()) stop();
  for (const auto lease : work.drop()) drop(lease);
  for (const auto& lease : work.leases()) add(lease.lease_id(), coordinator::from_wire(lease.subtree()));
  for (const auto& routed : work.backtracks())
    backtrack(routed.lease_id(), coordinator::backtrack_from_bytes(routed.request()));
  for (const auto& finished : work.finished()) given_away_finished(finished.lease_id(), finished.subtree_id());
  for (const auto lease : work.split()) split(lease);
}

void SubtreeSessions::add(std::uint64_t lease, const engine::Subtree& subtree) {
  auto session = std::make_unique<coordinator::ExplorationSession>(options_, subtree);
  std::lock_guard lock(mutex_);
  ++leases_seen_;
  hungry_ = false;
  if (closed_) return;
  if (const Part* held = part_of_lease(lease); held != nullptr && !held->dropped) return;  // sent again
  {
    std::lock_guard stoppable(stoppable_mutex_);
    if (stopping_) session->stop();
    stoppable_.insert(session.get());
  }
  const auto ordinal = next_ordinal_++;
  parts_.emplace(ordinal, Part{lease, std::move(session), {}, false, {}, 0, {}});
  ordinal_of_lease_[lease] = ordinal;  // a dropped part of the same lease is only collected
}

SubtreeSessions::Part* SubtreeSessions::part_of_lease(std::uint64_t lease) {
  const auto ordinal = ordinal_of_lease_.find(lease);
  return ordinal == ordinal_of_lease_.end() ? nullptr : &parts_.at(ordinal->second);
}

SubtreeSessions::Part* SubtreeSessions::part_of_run(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  const auto part = parts_.find(id >> kPartShift);
  return part == parts_.end() ? nullptr : &part->second;
}

// Under the lock, so that a part found finished by collect() stays so until it is forgotten.
void SubtreeSessions::backtrack(std::uint64_t lease, const engine::BacktrackRequest& request) {
  std::lock_guard lock(mutex_);
  ++backtracks_seen_;
  if (backtracks_seen_ - backtracks_said_ >= kRoutedForAReport) mark_urgent();
  if (Part* part = part_of_lease(lease)) part->session->request_backtrack(request);
}

void SubtreeSessions::given_away_finished(std::uint64_t lease, std::uint64_t subtree_id) {
  std::lock_guard lock(mutex_);
  Part* part = part_of_lease(lease);
  if (part == nullptr) return;
  part->session->subtree_finished(subtree_id);
  // A part that waited only for this subtree ends now, and no run of its comes back to say so:
  // without this its end waited for the next periodic report (a second: every job that was split
  // over two agents took a second more than over one).
  if (part->session->finished()) mark_urgent();
}

void SubtreeSessions::split(std::uint64_t lease) {
  std::lock_guard lock(mutex_);
  Part* part = part_of_lease(lease);
  proto::SplitAnswer answer;
  answer.set_lease_id(lease);
  if (part != nullptr && !part->dropped && !try_split(*part, answer)) {
    split_wanted_.insert(lease);
    any_split_wanted_ = true;
    return;
  }
  splits_.push_back(std::move(answer));
  mark_urgent();
}

bool SubtreeSessions::try_split(Part& part, proto::SplitAnswer& answer) {
  auto given = part.session->split();
  if (!given) return false;
  coordinator::to_wire(*given, *answer.mutable_given());
  return true;
}

void SubtreeSessions::split_wanted() {
  if (!any_split_wanted_) return;
  std::lock_guard lock(mutex_);
  for (auto it = split_wanted_.begin(); it != split_wanted_.end();) {
    Part* part = part_of_lease(*it);
    proto::SplitAnswer answer;
    answer.set_lease_id(*it);
    if (part != nullptr && !try_split(*part, answer)) {
      ++it;
      continue;
    }
    splits_.push_back(std::move(answer));  // given away, or (the lease is gone) nothing to give
    mark_urgent();
    it = split_wanted_.erase(it);
  }
  any_split_wanted_ = !split_wanted_.empty();
}

void SubtreeSessions::drop(std::uint64_t lease) {
  std::lock_guard lock(mutex_);
  Part* part = part_of_lease(lease);
  if (part == nullptr) return;
  part->dropped = true;
  part->session->stop();
}

void SubtreeSessions::close() {
  stop_sessions();  // first: the lock may wait for an analysis that this makes give up
  std::lock_guard lock(mutex_);
  closed_ = true;
}

void SubtreeSessions::stop() {
  stop_sessions();
}

bool SubtreeSessions::stopping() {
  std::lock_guard lock(stoppable_mutex_);
  return stopping_;
}

void SubtreeSessions::stop_sessions() {
  {
    std::lock_guard lock(stoppable_mutex_);
    stopping_ = true;
    for (auto* session : stoppable_) session->stop();
  }
  // A part with no run out has ended: no result comes to say so (those with runs out end as their
  // last one comes back or is given up, which says so). Not mark_urgent(): that needs mutex_.
  if (on_urgent_) on_urgent_();
}

bool SubtreeSessions::finished() const {
  std::lock_guard lock(mutex_);
  return closed_ &&
         std::all_of(parts_.begin(), parts_.end(), [](const auto& part) { return part.second.session->finished(); });
}

bool SubtreeSessions::hungry() const {
  std::lock_guard lock(mutex_);
  return hungry_;
}

std::uint64_t SubtreeSessions::leases_seen() const {
  std::lock_guard lock(mutex_);
  return leases_seen_;
}

std::uint64_t SubtreeSessions::backtracks_seen() const {
  std::lock_guard lock(mutex_);
  return backtracks_seen_;
}

std::vector<std::uint64_t> SubtreeSessions::leases() const {
  std::lock_guard lock(mutex_);
  std::vector<std::uint64_t> held;
  for (const auto& [lease, ordinal] : ordinal_of_lease_) {
    if (!parts_.at(ordinal).dropped) held.push_back(lease);
  }
  return held;
}

std::optional<coordinator::Lease> SubtreeSessions::next() {
  std::lock_guard lock(mutex_);
  return next_locked();
}

// The oldest subtree first: it is the shallowest, and finishing it lets its giver finish.
std::optional<coordinator::Lease> SubtreeSessions::next_locked() {
  if (!closed_) {
    for (auto& [ordinal, part] : parts_) {
      auto lease = part.session->next();
      if (!lease) continue;
      lease->id |= ordinal << kPartShift;
      hungry_ = false;
      return lease;
    }
  }
  if (!hungry_) mark_urgent();
  hungry_ = true;
  return std::nullopt;
}

coordinator::Handover SubtreeSessions::complete_and_next(std::uint64_t id, coordinator::EventSpan events,
                                                         const proto::RunResult& result, proto::RunRequest spent) {
  Part* part = part_of_run(id);
  if (part == nullptr) return {};
  const auto mask = (std::uint64_t{1} << kPartShift) - 1;
  return handed_over(id >> kPartShift, part->session->complete_and_next(id & mask, events, result, std::move(spent)));
}

coordinator::Handover SubtreeSessions::complete_and_next(std::uint64_t id, const engine::Execution& execution,
                                                         const proto::RunResult& result, proto::RunRequest spent) {
  Part* part = part_of_run(id);
  if (part == nullptr) return {};
  const auto mask = (std::uint64_t{1} << kPartShift) - 1;
  return handed_over(id >> kPartShift,
                     part->session->complete_and_next(id & mask, execution, result, std::move(spent)));
}

// The session's next lease, under this source's ids; when its session has none, another's; and
// finished only when the whole source is.
coordinator::Handover SubtreeSessions::handed_over(std::uint64_t ordinal, coordinator::Handover handover) {
  split_wanted();  // the run may have opened choices to give away
  if (handover.requests_held > 0) {
    std::lock_guard lock(mutex_);
    if (const auto part = parts_.find(ordinal); part != parts_.end()) {
      take_requests(part->second);
      if (part->second.backtrack_bytes >= request_bytes_for_a_report_) mark_urgent();
    }
  }
  if (handover.next) {
    handover.next->id |= ordinal << kPartShift;
    handover.finished = false;
    return handover;
  }
  std::lock_guard lock(mutex_);
  if (handover.finished) mark_urgent();  // a subtree ended: the coordinator hears it at once
  handover.next = next_locked();
  handover.finished = false;  // the workers learn it from finished(), once the source is closed
  return handover;
}

void SubtreeSessions::abandon(std::uint64_t id) {
  Part* part = part_of_run(id);
  if (part == nullptr) return;
  part->session->abandon(id & ((std::uint64_t{1} << kPartShift) - 1));
  // A stopped part whose last run was given up ends here, and no result comes to say so: the
  // coordinator hears it now, not at the next periodic report. Found again: once its session is
  // finished, the reporter may have collected and forgotten the part since (an agent crashed here).
  std::lock_guard lock(mutex_);
  const auto still = parts_.find(id >> kPartShift);
  if (still != parts_.end() && still->second.session->finished()) mark_urgent();
}

void SubtreeSessions::collect(proto::Report& report) {
  std::lock_guard lock(mutex_);
  for (auto& answer : splits_) *report.add_splits() = std::move(answer);
  splits_.clear();
  std::size_t room = report_bytes_;
  bool more = false;
  for (auto it = parts_.begin(); it != parts_.end();) {
    // Finished first: once it is, no run of it is out, and no request of it can follow those
    // collected now.
    const bool finished = it->second.session->finished();
    const bool said = it->second.dropped || collect_part(it->second, finished, report, room);
    more = more || !said;
    if (finished && said) {
      if (split_wanted_.erase(it->second.lease) != 0) {
        report.add_splits()->set_lease_id(it->second.lease);  // nothing given: it is done
        any_split_wanted_ = !split_wanted_.empty();
      }
      if (const auto mapped = ordinal_of_lease_.find(it->second.lease);
          mapped != ordinal_of_lease_.end() && mapped->second == it->first) {
        ordinal_of_lease_.erase(mapped);
      }
      {
        std::lock_guard stoppable(stoppable_mutex_);
        stoppable_.erase(it->second.session.get());
      }
      ended_.push_back(std::move(it->second.session));  // destroyed after the report: see drop_ended()
      it = parts_.erase(it);
    } else {
      ++it;
    }
  }
  report.set_leases_seen(leases_seen_);
  report.set_backtracks_seen(backtracks_seen_);
  backtracks_said_ = backtracks_seen_;
  report.set_hungry(hungry_);
  urgent_ = false;
  if (more) mark_urgent();  // the rest at once, in the next report
}

// Destroying a long lease's session (its tree, its classes) took up to 0.26 s: done before the
// report was written, it held back the lease's end, and so a stopped job's.
void SubtreeSessions::drop_ended() {
  std::vector<std::unique_ptr<coordinator::ExplorationSession>> ended;
  {
    std::lock_guard lock(mutex_);
    ended.swap(ended_);
  }
}

bool SubtreeSessions::collect_part(Part& part, bool finished, proto::Report& report, std::size_t& room) {
  auto& session = *part.session;
  if (stopping()) {
    // The job explores nothing more: its requests would only hold the lease's end back.
    session.take_backtrack_requests();
    part.backtracks.clear();
    part.backtrack_bytes = 0;
  }
  take_requests(part);
  while (!part.backtracks.empty() && room > 0) {
    auto& raised = *report.add_backtracks();
    raised.set_lease_id(part.lease);
    part.backtrack_bytes -= part.backtracks.front().size();
    raised.set_request(std::move(part.backtracks.front()));
    part.backtracks.pop_front();
    room -= std::min(room, raised.ByteSizeLong());
  }
  const auto progress = session.progress();
  for (const auto& bug : session.take_new_bugs()) coordinator::to_wire(bug, part.lease, *report.add_bugs());
  if (!part.backtracks.empty()) return false;
  if (finished) {
    auto& done = *report.add_done();
    done.set_lease_id(part.lease);
    coordinator::to_wire(progress.stats, *done.mutable_stats());
    coordinator::to_wire(session.class_keys(), *done.mutable_class_keys());
    done.set_complete(session.explored_completely());
    for (const auto& warning : session.warnings()) done.add_warnings(warning);
    if (auto reference = session.reference()) *done.mutable_reference() = std::move(*reference);
    if (auto nearest = session.nearest_passing()) {
      *done.mutable_nearest_passing() = std::move(nearest->first);
      done.set_nearest_shared(nearest->second);
    }
    coordinator::to_wire(session.bug_tallies(), *done.mutable_bug_tallies());
    return true;
  }
  // A portfolio's lease may run only sampled runs for a while (long runs, a sampled turn first).
  if (progress.stats.paths != part.reported.paths || progress.stats.sleep_blocked != part.reported.sleep_blocked ||
      progress.stats.sampled != part.reported.sampled) {
    auto& moved = *report.add_progress();
    moved.set_lease_id(part.lease);
    coordinator::to_wire(progress.stats, *moved.mutable_stats());
    part.reported = progress.stats;
  }
  return true;
}

// A race found again on another path is the same request: the owner needs it once.
void SubtreeSessions::take_requests(Part& part) {
  for (const auto& request : part.session->take_backtrack_requests()) {
    auto bytes = coordinator::backtrack_bytes(request);
    if (!part.raised.first_time(bytes)) continue;
    part.backtrack_bytes += bytes.size();
    part.backtracks.push_back(std::move(bytes));
  }
}

}  // namespace exocheck::agent
