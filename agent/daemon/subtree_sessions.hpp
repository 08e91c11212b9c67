#pragma once
// The subtrees a coordinator leased to this agent for one job (DESIGN.md, "Distribution"): one
// exploration session per subtree, explored by the agent's slots as embedded mode explores one
// session (LocalAgent, through the LeaseSource interface). The connection applies what the
// coordinator sends (new subtrees, routed backtrack requests, given-away subtrees finished,
// splits, stop); collect() gathers what to report (races above each subtree's root, figures,
// bugs, and each subtree's end with its class keys). No I/O. Thread-safe.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/coordinator/lease_source.hpp"
#include "exocheck/coordinator/spinning_mutex.hpp"
#include "exocheck/engine/subtree.hpp"
#include "proto/coordinator.pb.h"
#include "raised_requests.hpp"

namespace exocheck::agent {

class SubtreeSessions final : public coordinator::LeaseSource {
 public:
  /// What one report carries of backtrack requests at most, in wire bytes. Under optimal DPOR a
  /// subtree given away raised tens of thousands a second (minesweeper), and one report past
  /// gRPC's limit on a message (256 MB) broke the stream for good: sent again at each
  /// reconnection, never taken. Reports of 32 MB made an agent's heap jump by 150 MB, which glibc
  /// kept, when requests went as messages (a string object per name; they go as bytes now). The
  /// rest goes at once in the next report.
  static constexpr std::size_t kReportBytes = 4u << 20;
  /// The bytes of backtrack requests a lease holds for the next report that make it urgent. They
  /// are taken from its explorer after each of its runs, in their wire form and once each: held
  /// as the engine's until a report took them (about 2 KB each, half of them races found again),
  /// 4,096 of them made a taker's heap swing by 20 MB each second, which the C library kept.
  static constexpr std::size_t kRequestBytesForAReport = 1u << 20;
  /// Routed requests received since the last report that make the next one urgent: the coordinator
  /// journals a request until a report says it arrived, and at a report a second thousands were in
  /// flight.
  static constexpr std::uint64_t kRoutedForAReport = 1024;

  /// `urgent` is called (under this source's lock: it must not call back) when something the
  /// coordinator should hear soon happens: a slot found nothing to run, a subtree ended, a split
  /// was answered.
  /// `report_bytes`: what one report carries of backtrack requests at most (kReportBytes);
  /// `request_bytes_for_a_report`: the bytes of requests a lease holds that make a report urgent
  /// (kRequestBytesForAReport).
  explicit SubtreeSessions(coordinator::ExplorationOptions options, std::function<void()> urgent = {},
                           std::size_t report_bytes = kReportBytes,
                           std::size_t request_bytes_for_a_report = kRequestBytesForAReport);

  /// Applies what the coordinator sent for this job, in Work's order (coordinator.proto): the
  /// calls below.
  void apply(const proto::Work& work);

  // What the coordinator sends, one thing at a time.
  void add(std::uint64_t lease, const engine::Subtree& subtree);
  void backtrack(std::uint64_t lease, const engine::BacktrackRequest& request);
  void given_away_finished(std::uint64_t lease, std::uint64_t subtree_id);
  /// Splits `lease`'s session; the answer goes out with the next collect(). When it has nothing
  /// open to give away yet, the answer waits until it has (after a run of it), or until it ends.
  void split(std::uint64_t lease);
  /// `lease` is void (its giver is explored anew): it stops, and is forgotten unreported.
  void drop(std::uint64_t lease);
  /// The job is over for this agent (a new job, a lost stream): nothing more is leased, and the
  /// source is finished once the runs out are back.
  void close();

  /// What happened since the last collect(), in the order the coordinator applies it. A
  /// subtree's end comes after its last requests, and it is then forgotten.
  void collect(proto::Report& report);
  /// Destroys the sessions of the subtrees whose end collect() took: called once the report is
  /// written, so that their destruction does not hold it back.
  void drop_ended();
  /// A slot asked for work and found none (since the last subtree came).
  bool hungry() const;
  std::uint64_t leases_seen() const;
  /// Routed backtrack requests received so far (Report.backtracks_seen).
  std::uint64_t backtracks_seen() const;
  /// The leases held (not yet reported done).
  std::vector<std::uint64_t> leases() const;

  // LeaseSource, for the workers.
  std::optional<coordinator::Lease> next() override;
  coordinator::Handover complete_and_next(std::uint64_t id, coordinator::EventSpan events,
                                          const proto::RunResult& result, proto::RunRequest spent) override;
  coordinator::Handover complete_and_next(std::uint64_t id, const engine::Execution& execution,
                                          const proto::RunResult& result, proto::RunRequest spent) override;
  void abandon(std::uint64_t id) override;
  void stop() override;
  bool finished() const override;
  const coordinator::ExplorationOptions& options() const override { return options_; }

 private:
  struct Part {
    std::uint64_t lease = 0;
    std::unique_ptr<coordinator::ExplorationSession> session;
    engine::Stats reported;
    bool dropped = false;
    /// Taken from the session, not yet reported, serialised as the report carries them (a report
    /// carries at most kReportBytes of them).
    std::deque<std::string> backtracks;
    std::size_t backtrack_bytes = 0;  ///< of those in backtracks
    RaisedRequests raised;            ///< those raised lately: a race found again goes once
  };

  /// A lease's id among every part's: the part's ordinal above kPartShift, the session's id below.
  static constexpr unsigned kPartShift = 40;
  Part* part_of_run(std::uint64_t id);
  Part* part_of_lease(std::uint64_t lease);
  coordinator::Handover handed_over(std::uint64_t ordinal, coordinator::Handover handover);
  std::optional<coordinator::Lease> next_locked();
  /// False when requests are left for the next report: the lease's end waits for them.
  bool collect_part(Part& part, bool finished, proto::Report& report, std::size_t& room);
  /// Takes the requests `part`'s explorer raised, the first time each, into its backtracks.
  static void take_requests(Part& part);
  void mark_urgent();
  /// Answers the splits waiting for something to give away, where there is now.
  void split_wanted();
  bool try_split(Part& part, proto::SplitAnswer& answer);
  /// Stops every part's session, and those added later, without mutex_: that is held while a
  /// part's session is asked for work or figures, which waits for a result's analysis (minutes
  /// for a long run). ExplorationSession::stop() takes no lock, and makes that analysis give up.
  void stop_sessions();
  /// stop() or close() came.
  bool stopping();

  /// The wakeup-tree events the parts' explorers hold between them (their shared budget): before
  /// options_, which points to it, and parts_, whose explorers take their part from it as they go.
  std::atomic<std::uint64_t> wakeup_events_{0};
  const coordinator::ExplorationOptions options_;
  mutable coordinator::SpinningMutex mutex_;
  std::map<std::uint64_t, Part> parts_;  ///< by ordinal
  std::map<std::uint64_t, std::uint64_t> ordinal_of_lease_;
  std::uint64_t next_ordinal_ = 1;
  std::vector<proto::SplitAnswer> splits_;
  std::set<std::uint64_t> split_wanted_;       ///< leases asked to split that had nothing to give yet
  std::atomic<bool> any_split_wanted_{false};  ///< read without the lock after each run
  std::uint64_t leases_seen_ = 0;
  std::uint64_t backtracks_seen_ = 0;
  std::uint64_t backtracks_said_ = 0;  ///< backtracks_seen_ as the last report collected said it
  bool hungry_ = false;
  bool urgent_ = false;  ///< since the last collect(): `on_urgent_` was called
  const std::function<void()> on_urgent_;
  const std::size_t report_bytes_;
  const std::size_t request_bytes_for_a_report_;
  bool closed_ = false;
  /// The parts' sessions, for stop_sessions(): a lock taken under mutex_ or alone, never before it.
  std::mutex stoppable_mutex_;
  std::set<coordinator::ExplorationSession*> stoppable_;
  std::vector<std::unique_ptr<coordinator::ExplorationSession>> ended_;  ///< for drop_ended()
  bool stopping_ = false;  ///< under stoppable_mutex_: a session added is stopped at once
};

}  // namespace exocheck::agent
