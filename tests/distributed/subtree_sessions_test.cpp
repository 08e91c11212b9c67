// An agent's subtrees (agent/daemon/subtree_sessions.cpp) as the coordinator's work messages
// change them: a lease released while the agent was away and given back to it in the same message
// as its drop is explored anew; a lease whose last subtree given away comes back says so at once.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "fake_program.hpp"
#include "subtree_sessions.hpp"

namespace exocheck::distributed_test {
namespace {

proto::Work granting(std::uint64_t lease) {
  proto::Work work;
  work.set_job_id(1);
  work.add_leases()->set_lease_id(lease);  // the whole tree
  return work;
}

TEST(SubtreeSessions, ALeaseDroppedAndGrantedAgainInOneMessageIsExploredAnew) {
  agent::SubtreeSessions sessions({}, nullptr);
  sessions.apply(granting(1));
  EXPECT_EQ(sessions.leases(), std::vector<std::uint64_t>{1});
  // The coordinator came back after its grace: the lease it waited for is dropped, then the agent,
  // hungry, takes it again, both in the message that answers its return.
  proto::Work again = granting(1);
  again.add_drop(1);
  sessions.apply(again);
  EXPECT_EQ(sessions.leases(), std::vector<std::uint64_t>{1});
  EXPECT_EQ(sessions.leases_seen(), 2u);
  // A drop alone ends it.
  proto::Work drop;
  drop.set_job_id(1);
  drop.add_drop(1);
  sessions.apply(drop);
  EXPECT_TRUE(sessions.leases().empty());
}

// Three pings to one actor (6 classes): after the first run the root's other choices are open and
// one is given away; the lease's own runs end before it comes back, and then nothing of the agent
// runs: the end must be urgent, or the coordinator hears of it at the next periodic report only
// (a second later: every job split over two agents took a second more than over one).
TEST(SubtreeSessions, ALeaseWhoseLastGivenSubtreeComesBackEndsAtOnce) {
  const coordinator::testing::FakeBehaviour three{.pings = 3};
  int urgent = 0;
  agent::SubtreeSessions sessions({}, [&] { ++urgent; });
  sessions.apply(granting(1));
  auto lease = sessions.next();
  bool split_asked = false;
  while (lease) {
    const auto run = coordinator::testing::run_fake(lease->request, three);
    const auto events = coordinator::pointers_to(run.events);
    auto handover = sessions.complete_and_next(lease->id, events, run.result, lease->request);
    if (!split_asked) {
      sessions.split(1);
      split_asked = true;
    }
    lease = std::move(handover.next);
  }
  proto::Report report;
  sessions.collect(report);
  ASSERT_EQ(report.splits_size(), 1);
  ASSERT_TRUE(report.splits(0).has_given());
  EXPECT_EQ(report.done_size(), 0);  // the subtree given away is still out
  urgent = 0;
  sessions.given_away_finished(1, report.splits(0).given().id());
  EXPECT_EQ(urgent, 1);
  proto::Report after;
  sessions.collect(after);
  ASSERT_EQ(after.done_size(), 1);
  EXPECT_EQ(after.done(0).lease_id(), 1u);
}

// A lease's requests are taken from its explorer after each run, in their wire form and once
// each: past a number of bytes, they make the report urgent, where they waited for the next one a
// second later, tens of thousands of them.
TEST(SubtreeSessions, ALeaseHoldingManyRequestsMakesTheReportUrgent) {
  const coordinator::testing::FakeBehaviour four{.pings = 4};
  for (const std::size_t many : {std::size_t{1}, agent::SubtreeSessions::kRequestBytesForAReport}) {
    int urgent = 0;
    agent::SubtreeSessions sessions(
        {}, [&] { ++urgent; }, agent::SubtreeSessions::kReportBytes, many);
    proto::Work work = granting(1);
    work.mutable_leases(0)->mutable_subtree()->add_prefix("env#1");  // below env#1, which races above
    sessions.apply(work);
    const auto lease = sessions.next();
    ASSERT_TRUE(lease);
    const auto run = coordinator::testing::run_fake(lease->request, four);
    const auto events = coordinator::pointers_to(run.events);
    const auto handover = sessions.complete_and_next(lease->id, events, run.result, lease->request);
    ASSERT_TRUE(handover.next) << "the lease's other paths";
    EXPECT_GE(handover.requests_held, 1u);
    EXPECT_EQ(urgent, many == 1 ? 1 : 0) << many << " bytes of requests make a report urgent";
  }
}

// The coordinator journals a routed request until a report says it arrived: a flow of them makes
// the report urgent, not one a second later.
TEST(SubtreeSessions, ManyRoutedRequestsReceivedMakeTheReportUrgent) {
  int urgent = 0;
  agent::SubtreeSessions sessions({}, [&] { ++urgent; });
  proto::Work routed;
  routed.set_job_id(1);
  proto::BacktrackRequest request;
  request.set_message("env#2");
  for (std::uint64_t k = 0; k + 1 < agent::SubtreeSessions::kRoutedForAReport; ++k) {
    auto& sent = *routed.add_backtracks();
    sent.set_lease_id(7);  // not held here: counted as received all the same
    sent.set_request(request.SerializeAsString());
  }
  sessions.apply(routed);
  EXPECT_EQ(urgent, 0);
  routed.mutable_backtracks()->DeleteSubrange(1, routed.backtracks_size() - 1);
  sessions.apply(routed);
  EXPECT_EQ(urgent, 1);
  proto::Report report;
  sessions.collect(report);
  EXPECT_EQ(report.backtracks_seen(), agent::SubtreeSessions::kRoutedForAReport);
}

// A lease below the root (env#1 delivered first) races with env#1 above it on every path, and
// several paths raise the same request: each distinct one goes to the coordinator once (without
// the lease's record of those raised, some go twice), and a report carries what fits in its
// room, the rest in the next ones, the lease's end after the last.
TEST(SubtreeSessions, BacktrackRequestsGoOnceEachAndAReportCarriesWhatFits) {
  const coordinator::testing::FakeBehaviour four{.pings = 4};
  int urgent = 0;
  agent::SubtreeSessions sessions(
      {}, [&] { ++urgent; }, 1);
  proto::Work work = granting(1);
  work.mutable_leases(0)->mutable_subtree()->add_prefix("env#1");
  sessions.apply(work);
  int paths = 0;
  for (auto lease = sessions.next(); lease;) {
    const auto run = coordinator::testing::run_fake(lease->request, four);
    const auto events = coordinator::pointers_to(run.events);
    lease = std::move(sessions.complete_and_next(lease->id, events, run.result, lease->request).next);
    ++paths;
  }
  EXPECT_EQ(paths, 6);  // env#2, env#3 and env#4 in their 3! orders
  std::set<std::string> requests;
  int reports = 0;
  for (;;) {
    proto::Report report;
    urgent = 0;
    sessions.collect(report);
    ++reports;
    ASSERT_LE(report.backtracks_size(), 1);  // a room of one byte: one request a report
    for (const auto& raised : report.backtracks()) {
      EXPECT_TRUE(requests.insert(raised.request()).second) << "sent twice";
    }
    if (report.done_size() > 0) {
      EXPECT_EQ(report.backtracks_size(), 1) << "the end comes with the last request, not before";
      break;
    }
    EXPECT_EQ(urgent, 1) << "the rest goes at once";
    ASSERT_LT(reports, 100);
  }
  EXPECT_EQ(reports, static_cast<int>(requests.size()));
  EXPECT_GE(requests.size(), 2u);
}

// A run given up (a stopped job, a refused program) is abandoned by its worker while the reporter
// collects: once the abandon has finished the part, the reporter may forget it before the worker
// looks at it again. The agent of a refused CAF program crashed there now and then under load (a
// null session), and its job waited for ever. A race: many rounds, the reporter collecting all
// the while.
TEST(SubtreeSessions, ARunAbandonedWhileTheReporterForgetsItsPartEndsTheLease) {
  for (int round = 0; round < 3000; ++round) {
    agent::SubtreeSessions sessions({}, nullptr);
    sessions.apply(granting(1));
    const auto lease = sessions.next();
    ASSERT_TRUE(lease);
    sessions.stop();
    std::atomic<bool> abandoned = false;
    int done = 0;
    std::thread reporter([&] {
      for (bool last = false; !last;) {
        last = abandoned.load();
        proto::Report report;
        sessions.collect(report);
        done += report.done_size();
      }
    });
    sessions.abandon(lease->id);
    abandoned = true;
    reporter.join();
    ASSERT_EQ(done, 1) << "round " << round;
  }
}

}  // namespace
}  // namespace exocheck::distributed_test
