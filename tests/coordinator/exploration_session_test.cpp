// The exploration session against the fake two-message program: leases, results accepted once,
// abandoned leases issued again, bugs with replayable traces, dead-letter warnings, verdicts, and
// determinism checking.

#include <gtest/gtest.h>

#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/wire/result_events.hpp"
#include "fake_program.hpp"

namespace exocheck::coordinator::testing {
namespace {

ExplorationOptions options_with(engine::Reduction reduction, bool keep_going = false) {
  ExplorationOptions options;
  options.explorer.reduction = reduction;
  options.explorer.sleep_sets = false;
  options.keep_going = keep_going;
  options.step_limit = 50;
  options.subject = "./fake";
  options.args = {"--flag", "3"};
  return options;
}

std::vector<std::string> prefix_of(const Lease& lease) {
  return {lease.request.prefix().begin(), lease.request.prefix().end()};
}

// Runs every lease as soon as it is handed out, until the session is finished; returns the runs.
std::size_t drain(ExplorationSession& session, FakeBehaviour behaviour = {}) {
  std::size_t runs = 0;
  while (auto lease = session.next()) {
    const auto run = run_fake(lease->request, behaviour);
    EXPECT_TRUE(session.complete(lease->id, run.events, run.result));
    ++runs;
  }
  return runs;
}

TEST(ExplorationSession, ExploresBothOrdersThenIsCompleteWithoutBug) {
  for (auto reduction : {engine::Reduction::kExhaustive, engine::Reduction::kDpor, engine::Reduction::kTransDpor}) {
    ExplorationSession session(options_with(reduction));
    EXPECT_EQ(session.verdict(), Verdict::kRunning);
    EXPECT_EQ(drain(session), 2u) << options::name_of(reduction);
    EXPECT_TRUE(session.finished());
    EXPECT_EQ(session.verdict(), Verdict::kCompleteNoBug);
    const auto progress = session.progress();
    EXPECT_EQ(progress.stats.paths, 2u);
    EXPECT_EQ(progress.stats.classes, 2u);
    EXPECT_EQ(progress.outstanding, 0u);
    EXPECT_EQ(progress.frontier, 0u);
    EXPECT_TRUE(session.bugs().empty());
    EXPECT_TRUE(session.warnings().empty());
  }
}

// A subtree split off one session is explored by another (as an agent will): its first run comes
// back whole, its races above it go back to the giver, and the two reach both classes once.
TEST(ExplorationSession, ASubtreeSplitOffIsExploredByAnotherSessionAndTheClassesAddUp) {
  for (auto reduction : {engine::Reduction::kExhaustive, engine::Reduction::kDpor, engine::Reduction::kTransDpor}) {
    const std::string what(options::name_of(reduction));
    ExplorationSession giver(options_with(reduction));
    EXPECT_FALSE(giver.split()) << what;  // nothing known before the first run
    const auto first = giver.next();
    ASSERT_TRUE(first) << what;
    const auto run = run_fake(first->request);
    ASSERT_TRUE(giver.complete(first->id, run.events, run.result)) << what;
    const auto subtree = giver.split();
    ASSERT_TRUE(subtree) << what;
    EXPECT_EQ(subtree->prefix, std::vector<std::string>{"env#2"}) << what;
    EXPECT_FALSE(giver.next()) << what;  // the one other choice is given away

    ExplorationSession taker(options_with(reduction), *subtree);
    const auto start = taker.next();
    ASSERT_TRUE(start) << what;
    EXPECT_EQ(prefix_of(*start), subtree->prefix) << what;
    EXPECT_TRUE(start->request.all_steps()) << what;
    const auto taken = run_fake(start->request);
    ASSERT_TRUE(taker.complete(start->id, taken.events, taken.result)) << what;
    EXPECT_EQ(drain(taker), 0u) << what;
    EXPECT_TRUE(taker.finished()) << what;
    for (const auto& request : taker.take_backtrack_requests()) EXPECT_TRUE(giver.request_backtrack(request)) << what;

    EXPECT_EQ(drain(giver), 0u) << what;
    EXPECT_FALSE(giver.finished()) << what;  // until its subtree is
    giver.subtree_finished(subtree->id);
    EXPECT_TRUE(giver.finished()) << what;
    EXPECT_EQ(giver.verdict(), Verdict::kCompleteNoBug) << what;
    auto keys = giver.class_keys();
    const auto more = taker.class_keys();
    ASSERT_EQ(keys.size(), 1u) << what;
    ASSERT_EQ(more.size(), 1u) << what;
    EXPECT_NE(keys.front(), more.front()) << what;
    EXPECT_EQ(giver.progress().stats.paths + taker.progress().stats.paths, 2u) << what;
  }
}

TEST(ExplorationSession, LeaseCarriesThePrefixHeuristicAndStepLimit) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  const auto first = session.next();
  ASSERT_TRUE(first);
  EXPECT_TRUE(prefix_of(*first).empty());
  EXPECT_EQ(first->request.step_limit(), 50u);
  EXPECT_EQ(first->request.heuristic(), proto::FIFO);
  EXPECT_FALSE(session.next());  // nothing is known before the first result
  EXPECT_EQ(session.progress().outstanding, 1u);
  const auto run = run_fake(first->request);
  ASSERT_TRUE(session.complete(first->id, run.events, run.result));
  const auto second = session.next();
  ASSERT_TRUE(second);
  EXPECT_EQ(prefix_of(*second), std::vector<std::string>{"env#2"});
}

TEST(ExplorationSession, AResultIsAcceptedOnce) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  const auto lease = session.next();
  ASSERT_TRUE(lease);
  const auto run = run_fake(lease->request);
  EXPECT_TRUE(session.complete(lease->id, run.events, run.result));
  EXPECT_FALSE(session.complete(lease->id, run.events, run.result));
  EXPECT_FALSE(session.complete(lease->id + 100, run.events, run.result));
  EXPECT_EQ(session.progress().stats.paths, 1u);
}

TEST(ExplorationSession, CompleteAndNextHandsOverTheNextLeaseWithTheResult) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  const auto first = session.next();
  ASSERT_TRUE(first);
  const auto run = run_fake(first->request);
  const auto handover = session.complete_and_next(first->id, pointers_to(run.events), run.result);
  EXPECT_TRUE(handover.accepted);
  ASSERT_TRUE(handover.next);
  EXPECT_EQ(prefix_of(*handover.next), std::vector<std::string>{"env#2"});
  EXPECT_FALSE(handover.finished);  // the second lease is out
  EXPECT_EQ(session.progress().outstanding, 1u);

  const auto second = run_fake(handover.next->request);
  const auto last = session.complete_and_next(handover.next->id, pointers_to(second.events), second.result);
  EXPECT_TRUE(last.accepted);
  EXPECT_FALSE(last.next);
  EXPECT_TRUE(last.finished);
  EXPECT_EQ(session.verdict(), Verdict::kCompleteNoBug);
  EXPECT_EQ(session.progress().stats.paths, 2u);
  // A result for a lease already completed is refused, and hands nothing over.
  const auto again = session.complete_and_next(first->id, pointers_to(run.events), run.result);
  EXPECT_FALSE(again.accepted);
  EXPECT_FALSE(again.next);
  EXPECT_TRUE(again.finished);
}

// The request handed back is only memory to write the next one in: nothing of it shows.
TEST(ExplorationSession, TheNextLeaseWrittenOverTheSpentRequestHoldsNothingOfIt) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  const auto first = session.next();
  ASSERT_TRUE(first);
  const auto run = run_fake(first->request);
  proto::RunRequest spent;
  for (const char* id : {"x#1", "x#2", "x#3"}) spent.add_prefix(id);
  spent.add_sleep("x#4");
  spent.add_ranking("x");
  spent.set_heuristic(proto::RANKED);
  spent.set_step_limit(7);
  spent.set_whole_result(true);
  const auto handover = session.complete_and_next(first->id, pointers_to(run.events), run.result, std::move(spent));
  ASSERT_TRUE(handover.next);
  proto::RunRequest expected = first->request;  // the same settings, the path to the second run
  expected.clear_prefix();
  expected.add_prefix("env#2");
  EXPECT_EQ(handover.next->request.SerializeAsString(), expected.SerializeAsString());
  EXPECT_EQ(handover.next->request.step_limit(), 50u);
}

TEST(ExplorationSession, LeanResultsHandedOverDecodedExploreAsWithTheirEvents) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  std::size_t runs = 0;
  for (auto lease = session.next(); lease; ++runs) {
    const auto run = run_fake(lease->request);
    ASSERT_TRUE(wire::lean_result(lease->request, run.result));
    // What a worker's decoder makes of the run's serialized events: to_execution() of them.
    const auto execution = to_execution(pointers_to(run.events), run.result);
    const auto handover = session.complete_and_next(lease->id, execution, run.result, lease->request);
    EXPECT_TRUE(handover.accepted);
    lease = handover.next;
  }
  EXPECT_EQ(runs, 2u);
  EXPECT_EQ(session.verdict(), Verdict::kCompleteNoBug);
  EXPECT_EQ(session.progress().stats.classes, 2u);
}

TEST(ExplorationSession, AResultThatIsNotLeanIsRefusedWithoutItsEvents) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  const auto lease = session.next();
  ASSERT_TRUE(lease);
  const auto run = run_fake(lease->request, {.fail_when_env2_first = false, .destroy_after_first = true});
  ASSERT_FALSE(wire::lean_result(lease->request, run.result));  // a dead letter: warnings name it by its send
  const auto execution = to_execution(pointers_to(run.events), run.result);
  EXPECT_THROW(session.complete_and_next(lease->id, execution, run.result, lease->request), std::logic_error);
  EXPECT_EQ(session.progress().outstanding, 1u);  // not taken: the lease is still out
}

TEST(ExplorationSession, AnAbandonedLeaseIsIssuedAgain) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  const auto lease = session.next();
  ASSERT_TRUE(lease);
  session.abandon(lease->id);
  EXPECT_EQ(session.progress().outstanding, 0u);
  EXPECT_FALSE(session.finished());
  const auto again = session.next();
  ASSERT_TRUE(again);
  EXPECT_EQ(prefix_of(*again), prefix_of(*lease));
  EXPECT_FALSE(session.next());  // `again` is out: nothing else is ready yet
  const auto run = run_fake(again->request);
  EXPECT_TRUE(session.complete(again->id, run.events, run.result));
  EXPECT_EQ(drain(session), 1u);
  EXPECT_EQ(session.verdict(), Verdict::kCompleteNoBug);
  EXPECT_EQ(session.progress().stats.paths, 2u);
}

TEST(ExplorationSession, StopsAtTheFirstBugWithAReplayableTrace) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  EXPECT_EQ(drain(session, {.fail_when_env2_first = true}), 2u);
  EXPECT_TRUE(session.finished());
  EXPECT_EQ(session.verdict(), Verdict::kBugFound);
  const auto bugs = session.bugs();
  ASSERT_EQ(bugs.size(), 1u);
  const auto& bug = bugs.front();
  EXPECT_EQ(bug.number, 1u);
  EXPECT_EQ(bug.status, proto::RUN_ASSERTION_FAILED);
  EXPECT_EQ(bug.detail, "check failed in 0: env#2 overtook env#1");
  EXPECT_EQ(bug.trace.subject(), "./fake");
  EXPECT_EQ(std::vector<std::string>(bug.trace.args().begin(), bug.trace.args().end()),
            (std::vector<std::string>{"--flag", "3"}));
  EXPECT_EQ(std::vector<std::string>(bug.trace.prefix().begin(), bug.trace.prefix().end()),
            std::vector<std::string>{"env#2"});
  EXPECT_EQ(bug.trace.heuristic(), "fifo");
  EXPECT_EQ(bug.trace.step_limit(), 50u);
  EXPECT_EQ(bug.trace.events_size(), 2);
  EXPECT_EQ(bug.trace.result().status(), proto::RUN_ASSERTION_FAILED);
}

TEST(ExplorationSession, ABugTraceRecordsTheRankingItsRunWasGiven) {
  auto options = options_with(engine::Reduction::kDpor);
  options.explorer.heuristic = engine::Heuristic::kHms;
  ExplorationSession session(options);
  std::vector<std::string> failing_ranking;
  while (auto lease = session.next()) {
    EXPECT_EQ(lease->request.heuristic(), proto::RANKED);
    const auto run = run_fake(lease->request, {.fail_when_env2_first = true});
    if (run.result.status() == proto::RUN_ASSERTION_FAILED) {
      failing_ranking.assign(lease->request.ranking().begin(), lease->request.ranking().end());
    }
    ASSERT_TRUE(session.complete(lease->id, run.events, run.result));
  }
  const auto bugs = session.bugs();
  ASSERT_EQ(bugs.size(), 1u);
  // Rankings are learnt from the runs before: the failing run (not the first) has one.
  EXPECT_FALSE(failing_ranking.empty());
  EXPECT_EQ(std::vector<std::string>(bugs.front().trace.ranking().begin(), bugs.front().trace.ranking().end()),
            failing_ranking);
  EXPECT_EQ(bugs.front().trace.heuristic(), "hms");
}

TEST(ExplorationSession, NoMoreLeasesAfterTheFirstBugUnlessKeepGoing) {
  auto options = options_with(engine::Reduction::kExhaustive);
  ExplorationSession stopping(options);
  auto first = stopping.next();
  ASSERT_TRUE(first);
  first->request.add_prefix("env#2");  // make the very first run fail
  const auto failing = run_fake(first->request, {.fail_when_env2_first = true});
  ASSERT_TRUE(stopping.complete(first->id, failing.events, failing.result));
  EXPECT_FALSE(stopping.next());
  EXPECT_TRUE(stopping.finished());
  EXPECT_EQ(stopping.verdict(), Verdict::kBugFound);
  EXPECT_EQ(stopping.progress().stats.paths, 1u);

  options.keep_going = true;
  ExplorationSession going(options);
  EXPECT_EQ(drain(going, {.fail_when_env2_first = true}), 2u);
  EXPECT_EQ(going.verdict(), Verdict::kBugFound);
  EXPECT_EQ(going.bugs().size(), 1u);
}

TEST(ExplorationSession, EachDeadLetterIsReportedOnce) {
  ExplorationSession session(options_with(engine::Reduction::kExhaustive));
  EXPECT_EQ(drain(session, {.destroy_after_first = true}), 2u);
  EXPECT_EQ(session.verdict(), Verdict::kCompleteNoBug);
  EXPECT_EQ(session.warnings(), (std::vector<std::string>{"dead letter env#2 (Ping to 0) in run 1",
                                                          "dead letter env#1 (Ping to 0) in run 2"}));
}

TEST(ExplorationSession, StoppedBeforeCompletionIsALimit) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  const auto lease = session.next();
  ASSERT_TRUE(lease);
  session.stop();
  EXPECT_FALSE(session.finished());  // the outstanding result is still awaited
  EXPECT_FALSE(session.next());
  const auto run = run_fake(lease->request);
  EXPECT_TRUE(session.complete(lease->id, run.events, run.result));
  EXPECT_TRUE(session.finished());
  EXPECT_EQ(session.verdict(), Verdict::kLimitReached);
  EXPECT_EQ(session.progress().stats.paths, 1u);
  // Stopped, the session analyses no result further (engine::Explorer::interrupt): a time limit
  // holds however long a run's races would take; its races open no choice.
  EXPECT_EQ(session.progress().frontier, 0u);
}

TEST(ExplorationSession, MaxPathsIsALimit) {
  auto options = options_with(engine::Reduction::kDpor);
  options.explorer.max_paths = 1;
  ExplorationSession session(options);
  EXPECT_EQ(drain(session), 1u);
  EXPECT_TRUE(session.finished());
  EXPECT_EQ(session.verdict(), Verdict::kLimitReached);
}

TEST(ExplorationSession, DeterminismCheckReportsTheSecondFinalStateWithBothTraces) {
  auto options = options_with(engine::Reduction::kDpor);
  options.explorer.checks.determinism = true;
  ExplorationSession session(options);
  std::size_t runs = 0;
  while (auto lease = session.next()) {
    EXPECT_TRUE(lease->request.whole_result());  // final states and traces are kept
    const auto run = run_fake(lease->request, {.remember_last = true});
    ASSERT_TRUE(session.complete(lease->id, run.events, run.result));
    ++runs;
  }
  EXPECT_EQ(runs, 2u);
  EXPECT_EQ(session.verdict(), Verdict::kBugFound);
  const auto bugs = session.bugs();
  ASSERT_EQ(bugs.size(), 1u);
  const auto& bug = bugs.front();
  EXPECT_EQ(bug.status, proto::RUN_NONDETERMINISTIC);
  EXPECT_EQ(bug.detail, "against the first completed path: -0: last env#2, +0: last env#1");
  EXPECT_EQ(bug.trace.result().status(), proto::RUN_COMPLETED);
  EXPECT_EQ(std::vector<std::string>(bug.trace.prefix().begin(), bug.trace.prefix().end()),
            (std::vector<std::string>{"env#2", "env#1"}));
  ASSERT_TRUE(bug.reference);
  EXPECT_EQ(std::vector<std::string>(bug.reference->prefix().begin(), bug.reference->prefix().end()),
            (std::vector<std::string>{"env#1", "env#2"}));
  EXPECT_EQ(bug.reference->result().final_state(0), "0: last env#2");
}

TEST(ExplorationSession, WithoutTheCheckDifferentFinalStatesAreNoBug) {
  ExplorationSession session(options_with(engine::Reduction::kDpor));
  EXPECT_EQ(drain(session, {.remember_last = true}), 2u);
  EXPECT_EQ(session.verdict(), Verdict::kCompleteNoBug);
}

TEST(ExplorationSession, DeterminismCheckAcceptsOneFinalStateOnEveryPath) {
  auto options = options_with(engine::Reduction::kExhaustive);
  options.explorer.checks.determinism = true;
  ExplorationSession session(options);
  EXPECT_EQ(drain(session), 2u);  // the fake program's final state is empty on both paths
  EXPECT_EQ(session.verdict(), Verdict::kCompleteNoBug);
}

TEST(DeterminismCheck, ReportsEachDistinctFinalStateOnce) {
  DeterminismCheck check;
  EXPECT_FALSE(check.observe({"a: 1", "b: 2"}));  // the reference
  EXPECT_FALSE(check.observe({"a: 1", "b: 2"}));
  EXPECT_EQ(check.observe({"a: 1", "b: 3"}), "-b: 2, +b: 3");
  EXPECT_FALSE(check.observe({"a: 1", "b: 3"}));
  EXPECT_EQ(check.observe({"a: 1"}), "-b: 2");
}

TEST(DeterminismCheck, DiffIsCutShortAfterTheGivenNumberOfLines) {
  EXPECT_EQ(final_state_diff({"a", "b", "c"}, {"d"}, 2), "-a, -b, and 2 more");
  EXPECT_EQ(final_state_diff({"a", "a"}, {"a"}), "-a");  // a repeated line counts
}

}  // namespace
}  // namespace exocheck::coordinator::testing
