// The coordinator's rules without a transport: offers before work, one job at a time, subtrees
// leased to hungry agents, splits asked of the shallowest lease, backtrack requests routed to their
// owners, figures and class keys added up once, a lost agent's subtrees leased again, refusals,
// launch failures, bugs, cancels and bounds. Across a lost stream and a restart:
// job_dispatcher_reattach_test.cpp.

#include <gtest/gtest.h>

#include <future>
#include <stdexcept>
#include <string>

#include "dispatcher_messages.hpp"
#include "exocheck/coordinator/subtree_wire.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {
namespace {

using namespace dispatcher_testing;

class JobDispatcherTest : public testing::Test {
 protected:
  // An agent that accepted the job; returns its id.
  std::uint64_t accepting_agent(std::uint64_t job_id, const std::string& name = "a") {
    const auto agent = dispatcher.attach_agent(hello(name));
    const auto offer = dispatcher.work_for(agent).offer;
    EXPECT_TRUE(offer.has_value());
    dispatcher.record_check(agent, check(job_id, true));
    return agent;
  }

  /// The work waiting for `agent` (empty when there is none).
  proto::Work work(std::uint64_t agent) {
    auto work = dispatcher.work_for(agent).work;
    return work ? *work : proto::Work{};
  }

  proto::JobState state(std::uint64_t job_id) const { return dispatcher.progress(job_id).value().state(); }

  /// The answer of the lease `whole` to a split asked: subtree 5, env#2 delivered first.
  static proto::Report split_answer(std::uint64_t job, std::uint64_t whole) {
    auto answer = report(job, 1);
    auto& split = *answer.add_splits();
    split.set_lease_id(whole);
    split.mutable_given()->set_id(5);
    split.mutable_given()->add_prefix("env#2");
    return answer;
  }

  // Without a grace: a lost agent's subtrees wait again at once.
  JobDispatcher dispatcher{DispatcherOptions{std::chrono::milliseconds(0), nullptr}};
};

TEST_F(JobDispatcherTest, RejectsBadSettingsWithTheFieldNamed) {
  try {
    dispatcher.submit(submission(static_cast<proto::Reduction>(42)));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(), "unknown reduction number 42");
  }
  auto bad_sha = submission();
  bad_sha.set_sha256("abc");
  EXPECT_THROW(dispatcher.submit(bad_sha), std::invalid_argument);
}

TEST_F(JobDispatcherTest, OffersTheJobBeforeAnyWorkThenTheWholeTree) {
  const auto job = dispatcher.submit(submission());
  const auto agent = dispatcher.attach_agent(hello("a", 4));
  const auto first = dispatcher.work_for(agent);
  ASSERT_TRUE(first.offer.has_value());
  EXPECT_EQ(first.offer->job_id(), job);
  EXPECT_EQ(first.offer->subject(), "/bin/subject");
  EXPECT_EQ(first.offer->args_size(), 2);
  EXPECT_EQ(first.offer->sha256(), kSha);
  EXPECT_EQ(first.offer->settings().run_timeout_ms(), 1000u);
  EXPECT_EQ(first.offer->settings().reduction(), proto::REDUCTION_TRANSDPOR);
  EXPECT_TRUE(first.offer->settings().sleep_sets());
  EXPECT_FALSE(first.work);
  EXPECT_FALSE(dispatcher.work_for(agent).work) << "no work before the agent accepted";
  dispatcher.record_check(agent, check(job, true));
  const auto leases = work(agent).leases();
  ASSERT_EQ(leases.size(), 1);
  EXPECT_EQ(leases[0].subtree().prefix_size(), 0) << "the whole tree first";
  EXPECT_FALSE(dispatcher.work_for(agent).work) << "taken once";
}

TEST_F(JobDispatcherTest, ALeaseDoneEndsTheJobWithItsFiguresCountedOnce) {
  const auto job = dispatcher.submit(submission());
  EXPECT_FALSE(dispatcher.wait_until_over(job, Clock::now()));
  const auto agent = accepting_agent(job);
  const auto lease = work(agent).leases(0).lease_id();
  auto moving = report(job, 1);
  moving.add_progress()->set_lease_id(lease);
  moving.mutable_progress(0)->mutable_stats()->set_paths(2);
  dispatcher.accept_report(agent, moving);
  EXPECT_EQ(dispatcher.progress(job)->paths(), 2u);
  EXPECT_EQ(dispatcher.progress(job)->outstanding(), 1u);
  // What Watch waits for to send the final state at once: woken by the report that ends the job.
  auto waiter = std::async(std::launch::async,
                           [&] { return dispatcher.wait_until_over(job, Clock::now() + std::chrono::seconds(60)); });
  auto done = report(job, 1);
  add_done(done, lease, 3, {7, 8, 7});
  dispatcher.accept_report(agent, done);
  EXPECT_EQ(waiter.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_TRUE(waiter.get());
  EXPECT_TRUE(dispatcher.wait_until_over(job + 1, Clock::now()));  // unknown
  dispatcher.accept_report(agent, done);                           // again: the job is over, nothing changes
  const auto progress = dispatcher.progress(job).value();
  EXPECT_EQ(progress.state(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(progress.paths(), 3u);
  EXPECT_EQ(progress.classes(), 2u) << "keys, not the agent's count";
  EXPECT_EQ(progress.outstanding(), 0u);
}

// Progress adds to the ledger's figures each live lease's latest ones (kept summed as they come,
// not walked per watch), and counts the agents attached that accepted the job.
TEST_F(JobDispatcherTest, ProgressHoldsEachLiveLeasesLatestFiguresAndTheAgentsAttached) {
  const auto job = dispatcher.submit(submission());
  const auto first = accepting_agent(job, "a");
  const auto lease = work(first).leases(0).lease_id();
  for (const std::uint64_t paths : {2, 5}) {
    auto moving = report(job, 1);
    moving.add_progress()->set_lease_id(lease);
    moving.mutable_progress(0)->mutable_stats()->set_paths(paths);
    dispatcher.accept_report(first, moving);
  }
  EXPECT_EQ(dispatcher.progress(job)->paths(), 5u) << "the latest figures, not their sum";
  const auto second = accepting_agent(job, "b");
  EXPECT_EQ(dispatcher.progress(job)->agents(), 2u);
  dispatcher.detach_agent(second);
  EXPECT_EQ(dispatcher.progress(job)->agents(), 1u);
  EXPECT_EQ(dispatcher.progress(job)->paths(), 5u);
  dispatcher.detach_agent(first);  // no grace: its lease waits again, its figures dropped
  EXPECT_EQ(dispatcher.progress(job)->agents(), 0u);
  EXPECT_EQ(dispatcher.progress(job)->paths(), 0u);
  EXPECT_EQ(dispatcher.progress(job)->frontier(), 1u);
}

TEST_F(JobDispatcherTest, AHungryAgentGetsWhatTheShallowestLeaseSplitsOff) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  const auto b = accepting_agent(job, "b");
  EXPECT_TRUE(work(b).leases().empty()) << "nothing waits";
  auto asked = work(a);
  ASSERT_EQ(asked.split_size(), 1) << "a is asked to split for the hungry b";
  EXPECT_EQ(asked.split(0), whole);

  auto answer = split_answer(job, whole);
  dispatcher.accept_report(a, answer);
  const auto given = work(b).leases();
  ASSERT_EQ(given.size(), 1);
  EXPECT_EQ(given[0].subtree().prefix(0), "env#2");
  EXPECT_EQ(given[0].subtree().id(), 5u);
  const auto part = given[0].lease_id();

  // b's race above its root goes to a, the owner of the configuration; its end goes to a too,
  // after the request, as the notice that subtree 5 is explored.
  auto raised = report(job, 1);
  auto& race = *raised.add_backtracks();
  race.set_lease_id(part);
  race.set_request(request_for("env#2", "env#1"));
  add_done(raised, part, 2, {1, 2});
  dispatcher.accept_report(b, raised);
  const auto routed = work(a);
  ASSERT_EQ(routed.backtracks_size(), 1);
  EXPECT_EQ(routed.backtracks(0).lease_id(), whole);
  EXPECT_EQ(coordinator::backtrack_from_bytes(routed.backtracks(0).request()).message, "env#2");
  ASSERT_EQ(routed.finished_size(), 1);
  EXPECT_EQ(routed.finished(0).lease_id(), whole);
  EXPECT_EQ(routed.finished(0).subtree_id(), 5u);
  EXPECT_EQ(state(job), proto::JOB_RUNNING);

  auto last = report(job, 1);
  add_done(last, whole, 3, {2, 3});
  dispatcher.accept_report(a, last);
  const auto progress = dispatcher.progress(job).value();
  EXPECT_EQ(progress.state(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(progress.paths(), 5u);
  EXPECT_EQ(progress.classes(), 3u);
  EXPECT_EQ(progress.subtrees(), 2u);
}

// A subtree given away reaches another agent through the coordinator, which reads it first: a
// wakeup tree whose preorder skips a depth (no agent of ours sends one) is refused, not passed on.
TEST_F(JobDispatcherTest, ASplitOffSubtreeWithAMalformedWakeupTreeIsRefusedAndNotLeased) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  const auto b = accepting_agent(job, "b");
  ASSERT_EQ(work(a).split_size(), 1);
  auto answer = split_answer(job, whole);
  answer.mutable_splits(0)->mutable_given()->add_wakeup()->set_depth(1);
  answer.mutable_splits(0)->mutable_given()->add_wakeup()->set_depth(3);
  try {
    dispatcher.accept_report(a, answer);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "subtree 5: its wakeup tree's preorder goes from depth 1 to 3");
  }
  EXPECT_TRUE(work(b).leases().empty());
}

// The coordinator reads a request's prefix only and passes its bytes on: bytes that are no request
// are refused there, not sent to the owner's agent.
TEST_F(JobDispatcherTest, ABacktrackRequestThatIsNoneIsRefusedAndNotRouted) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  const auto b = accepting_agent(job, "b");
  ASSERT_EQ(work(a).split_size(), 1);
  dispatcher.accept_report(a, split_answer(job, whole));
  const auto part = work(b).leases(0).lease_id();
  auto raised = report(job, 1);
  auto& race = *raised.add_backtracks();
  race.set_lease_id(part);
  race.set_request(request_for("env#2", "env#1").substr(1));
  try {
    dispatcher.accept_report(b, raised);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(
        std::string(error.what()).rfind("lease " + std::to_string(part) + ": a backtrack request that is not one", 0),
        0u)
        << error.what();
  }
  EXPECT_EQ(work(a).backtracks_size(), 0);
}

TEST_F(JobDispatcherTest, ALostAgentsSubtreeIsLeasedAgainAndItsFiguresDropped) {
  const auto job = dispatcher.submit(submission());
  const auto lost = accepting_agent(job, "lost");
  const auto lease = work(lost).leases(0).lease_id();
  auto moving = report(job, 1);
  moving.add_progress()->set_lease_id(lease);
  moving.mutable_progress(0)->mutable_stats()->set_paths(10);
  dispatcher.accept_report(lost, moving);
  EXPECT_EQ(dispatcher.progress(job)->paths(), 10u);
  dispatcher.detach_agent(lost);
  EXPECT_EQ(dispatcher.progress(job)->paths(), 0u) << "counted when explored again";
  EXPECT_EQ(dispatcher.progress(job)->frontier(), 1u);
  const auto other = accepting_agent(job, "other");
  const auto again = work(other).leases();
  ASSERT_EQ(again.size(), 1);
  EXPECT_EQ(again[0].lease_id(), lease);
  auto done = report(job, 1);
  add_done(done, lease, 4, {1, 2, 3, 4});
  dispatcher.accept_report(other, done);
  EXPECT_EQ(state(job), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(dispatcher.progress(job)->paths(), 4u);
}

TEST_F(JobDispatcherTest, WhatALostLeaseGaveAwayIsDroppedAndNotCounted) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  const auto b = accepting_agent(job, "b");
  work(a);
  auto answer = report(job, 1);
  answer.add_splits()->set_lease_id(whole);
  answer.mutable_splits(0)->mutable_given()->set_id(1);
  answer.mutable_splits(0)->mutable_given()->add_prefix("env#2");
  dispatcher.accept_report(a, answer);
  const auto part = work(b).leases(0).lease_id();
  dispatcher.detach_agent(a);
  const auto dropped = work(b);
  ASSERT_EQ(dropped.drop_size(), 1) << "whoever explores the whole tree again explores b's part too";
  EXPECT_EQ(dropped.drop(0), part);
  const auto c = accepting_agent(job, "c");
  EXPECT_EQ(work(c).leases(0).lease_id(), whole) << "explored anew from its root";
  auto late = report(job, 1);
  add_done(late, part, 1, {9});
  dispatcher.accept_report(b, late);
  EXPECT_EQ(work(c).finished_size(), 0) << "c's explorer never gave subtree 1 away";
  EXPECT_EQ(dispatcher.progress(job)->paths(), 0u) << "a void lease's end is not counted";
  auto all = report(job, 1);
  add_done(all, whole, 2, {8, 9});
  dispatcher.accept_report(c, all);
  EXPECT_EQ(state(job), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(dispatcher.progress(job)->paths(), 2u);
  EXPECT_EQ(dispatcher.progress(job)->classes(), 2u);
}

TEST_F(JobDispatcherTest, RunsOneJobAtATime) {
  const auto first = dispatcher.submit(submission());
  const auto second = dispatcher.submit(submission(proto::REDUCTION_DPOR));
  EXPECT_EQ(state(first), proto::JOB_RUNNING);
  EXPECT_EQ(state(second), proto::JOB_QUEUED);
  const auto agent = accepting_agent(first);
  auto done = report(first, 1);
  add_done(done, work(agent).leases(0).lease_id(), 1, {1});
  dispatcher.accept_report(agent, done);
  EXPECT_EQ(state(first), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(state(second), proto::JOB_RUNNING);
  const auto offer = dispatcher.work_for(agent).offer;
  ASSERT_TRUE(offer.has_value());
  EXPECT_EQ(offer->job_id(), second);
  EXPECT_EQ(offer->settings().reduction(), proto::REDUCTION_DPOR);
}

TEST_F(JobDispatcherTest, FailsAJobEveryAgentRefusesAndStartsTheNext) {
  const auto refused = dispatcher.submit(submission());
  const auto next = dispatcher.submit(submission());
  const auto a = dispatcher.attach_agent(hello("a"));
  const auto b = dispatcher.attach_agent(hello("b"));
  dispatcher.work_for(a);
  dispatcher.work_for(b);
  dispatcher.record_check(a, check(refused, false, "sha256 mismatch"));
  EXPECT_EQ(state(refused), proto::JOB_RUNNING) << "agent b may still accept";
  dispatcher.record_check(b, check(refused, false, "no such file"));
  const auto progress = dispatcher.progress(refused).value();
  EXPECT_EQ(progress.state(), proto::JOB_FAILED);
  EXPECT_EQ(progress.error(), "no agent can run the subject: agent a: sha256 mismatch; agent b: no such file");
  ASSERT_EQ(progress.refusals_size(), 2);
  EXPECT_EQ(state(next), proto::JOB_RUNNING);
}

TEST_F(JobDispatcherTest, FailsAJobWhoseSubjectCannotBeLaunched) {
  const auto job = dispatcher.submit(submission());
  const auto agent = accepting_agent(job, "a");
  work(agent);
  auto failed = report(job, 1);
  failed.set_launch_failure("not linked with the hook");
  dispatcher.accept_report(agent, failed);
  const auto progress = dispatcher.progress(job).value();
  EXPECT_EQ(progress.state(), proto::JOB_FAILED);
  EXPECT_EQ(progress.error(), "agent a could not run the subject: not linked with the hook");
  EXPECT_EQ(progress.paths(), 0u);
  EXPECT_TRUE(work(agent).stop()) << "the agent stops exploring the failed job";
}

TEST_F(JobDispatcherTest, TheFirstBugStopsEveryAgentAndEndsTheJobOnceTheyAreDone) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  auto found = report(job, 1);
  add_bug(found, whole, {"env#1", "0#1"}, 1);
  add_bug(found, whole, {"env#2", "0#1"}, 2);  // after the first: not kept without --keep-going
  dispatcher.accept_report(a, found);
  EXPECT_TRUE(work(a).stop());
  EXPECT_EQ(state(job), proto::JOB_RUNNING) << "until the agent brings its lease back";
  auto done = report(job, 1);
  add_done(done, whole, 2, {1, 2}, false);
  dispatcher.accept_report(a, done);
  EXPECT_EQ(state(job), proto::JOB_BUG_FOUND);
  const auto bugs = dispatcher.bugs(job);
  ASSERT_EQ(bugs.size(), 1u);
  EXPECT_EQ(bugs[0].number, 1u);
  EXPECT_EQ(bugs[0].detail, "x == 2");
  EXPECT_EQ(bugs[0].trace.prefix(0), "env#1");
}

// A lease sends each distinct bug when found and again with a shorter run; its counts come with
// its end. The job keeps one per signature, the shortest run's trace, the leases' counts summed.
TEST_F(JobDispatcherTest, WithKeepGoingEachDistinctBugIsKeptOnceWithItsShortestRunAndCounts) {
  auto request = submission();
  request.mutable_settings()->set_keep_going(true);
  const auto job = dispatcher.submit(request);
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  auto found = report(job, 1);
  add_bug(found, whole, {"env#1", "0#1", "0#2"}, 1);
  add_bug(found, whole, {"env#2", "0#1"}, 2, "y is lost");
  add_bug(found, whole, {"0#1", "env#1"}, 3);         // shorter: its run is kept instead
  add_bug(found, whole, {"0#1", "env#1", "0#3"}, 1);  // longer: changes nothing
  dispatcher.accept_report(a, found);
  EXPECT_FALSE(work(a).stop());
  auto done = report(job, 2);
  add_done(done, whole, 9, {1, 2, 3, 4});
  add_tally(done, whole, 6, {1, 3});
  add_tally(done, whole, 1, {2}, "y is lost");
  dispatcher.accept_report(a, done);
  EXPECT_EQ(state(job), proto::JOB_BUG_FOUND);
  const auto bugs = dispatcher.bugs(job);
  ASSERT_EQ(bugs.size(), 2u);
  EXPECT_EQ(bugs[0].number, 1u);
  EXPECT_EQ(bugs[0].signature.what, "x == <n>");
  EXPECT_EQ(bugs[0].trace.prefix(0), "0#1");
  EXPECT_EQ(bugs[0].steps(), 2u);
  EXPECT_EQ(bugs[0].paths, 6u);
  EXPECT_EQ(bugs[0].classes, 2u);
  EXPECT_EQ(bugs[1].signature.what, "y is lost");
  EXPECT_EQ(bugs[1].paths, 1u);
  EXPECT_EQ(dispatcher.progress(job)->bugs(), 2u);
  EXPECT_TRUE(dispatcher.progress(job)->complete());
}

TEST_F(JobDispatcherTest, MaxBugsStopsTheJobAtThatManyDistinctBugs) {
  auto request = submission();
  request.mutable_settings()->set_keep_going(true);
  request.mutable_settings()->set_max_bugs(2);
  const auto job = dispatcher.submit(request);
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  auto found = report(job, 1);
  add_bug(found, whole, {"env#1"}, 1, "one");
  add_bug(found, whole, {"env#1"}, 1, "one");
  EXPECT_FALSE((dispatcher.accept_report(a, found), work(a).stop()));
  auto more = report(job, 2);
  add_bug(more, whole, {"env#2"}, 2, "two");
  add_bug(more, whole, {"env#3"}, 3, "three");  // past the second: not kept
  dispatcher.accept_report(a, more);
  EXPECT_TRUE(work(a).stop());
  EXPECT_EQ(dispatcher.bugs(job).size(), 2u);
}

TEST_F(JobDispatcherTest, PastItsBugTracesAJobCountsEachDistinctBugWithoutItsTrace) {
  auto request = submission();
  request.mutable_settings()->set_keep_going(true);
  request.mutable_settings()->set_bug_traces(1);
  const auto job = dispatcher.submit(request);
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  auto found = report(job, 1);
  add_bug(found, whole, {"env#1", "0#1"}, 1);
  add_bug(found, whole, {"env#2", "0#1"}, 2, "y is lost");  // past the one trace kept: counted
  auto& traceless = *found.add_bugs();                      // as a lease past its own limit sends them
  traceless.set_lease_id(whole);
  traceless.set_status(proto::RUN_ASSERTION_FAILED);
  traceless.set_what("z is late");
  found.add_bugs()->CopyFrom(traceless);  // the same distinct bug again: once
  dispatcher.accept_report(a, found);
  const auto bugs = dispatcher.bugs(job);
  ASSERT_EQ(bugs.size(), 3u);
  EXPECT_EQ(bugs[0].trace.prefix(0), "env#1");
  EXPECT_FALSE(bugs[1].has_trace());
  EXPECT_FALSE(bugs[2].has_trace());
  EXPECT_EQ(dispatcher.progress(job)->bugs(), 3u);
}

TEST_F(JobDispatcherTest, MaxPathsStopsTheJobAtTheBound) {
  auto request = submission();
  request.mutable_settings()->set_max_paths(5);
  const auto job = dispatcher.submit(request);
  const auto a = accepting_agent(job, "a");
  const auto whole = work(a).leases(0).lease_id();
  auto moving = report(job, 1);
  moving.add_progress()->set_lease_id(whole);
  moving.mutable_progress(0)->mutable_stats()->set_paths(5);
  dispatcher.accept_report(a, moving);
  EXPECT_TRUE(work(a).stop());
  auto done = report(job, 1);
  add_done(done, whole, 5, {1, 2, 3, 4, 5}, false);
  dispatcher.accept_report(a, done);
  EXPECT_EQ(state(job), proto::JOB_LIMIT_REACHED);
}

TEST_F(JobDispatcherTest, CancelDropsAQueuedJobAndStopsARunningOne) {
  const auto running = dispatcher.submit(submission());
  const auto queued = dispatcher.submit(submission());
  EXPECT_TRUE(dispatcher.cancel(queued));
  EXPECT_EQ(state(queued), proto::JOB_LIMIT_REACHED);
  EXPECT_FALSE(dispatcher.cancel(queued)) << "already over";
  const auto agent = accepting_agent(running);
  const auto whole = work(agent).leases(0).lease_id();
  EXPECT_TRUE(dispatcher.cancel(running));
  EXPECT_TRUE(work(agent).stop());
  EXPECT_EQ(state(running), proto::JOB_RUNNING) << "until the agent brings its lease back";
  auto done = report(running, 1);
  add_done(done, whole, 1, {1}, false);
  dispatcher.accept_report(agent, done);
  EXPECT_EQ(state(running), proto::JOB_LIMIT_REACHED);
  EXPECT_FALSE(dispatcher.cancel(99));
}

}  // namespace
}  // namespace exocheck::coordinator
