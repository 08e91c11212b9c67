// Distinct bugs: what makes two failing runs one bug (BugSignature), and what is kept of each
// (BugGroups: counts, the shortest run's trace, the cap on traces).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exocheck/coordinator/bug_groups.hpp"
#include "exocheck/coordinator/bug_signature.hpp"

namespace exocheck::coordinator {
namespace {

// Step 0 creates `actors` (id, type); step 1 delivers `type` to actor 0 with `outcome`.
proto::TraceFile run_of(const std::vector<std::pair<std::string, std::string>>& actors, const std::string& type,
                        proto::StepOutcome outcome, const std::string& detail) {
  proto::TraceFile trace;
  auto& initial = *trace.add_events();
  for (const auto& [id, actor_type] : actors) {
    auto& created = *initial.add_actor_types();
    created.set_actor(id);
    created.set_type(actor_type);
    auto& sent = *initial.add_sent();
    sent.set_id("env#" + id);
    sent.set_type(type);
  }
  auto& step = *trace.add_events();
  step.set_step(1);
  step.set_actor("0");
  step.set_message("env#0");
  step.set_type(type);
  step.set_outcome(outcome);
  step.set_detail(detail);
  trace.mutable_result()->set_status(outcome == proto::STEP_EXCEPTION ? proto::RUN_EXCEPTION
                                                                      : proto::RUN_ASSERTION_FAILED);
  return trace;
}

TEST(BugSignature, AFailedCheckIsItsActorsTypeMessageTypeAndTextNumbersMasked) {
  const auto one = signature_of(
      run_of({{"0", "Monitor"}}, "Elected", proto::STEP_ASSERTION_FAILED, "two leaders in term 1: 2 and 1 (0.5 s)"));
  const auto other = signature_of(
      run_of({{"0", "Monitor"}}, "Elected", proto::STEP_ASSERTION_FAILED, "two leaders in term 12: 1 and 2 (10.25 s)"));
  EXPECT_EQ(one, other);
  EXPECT_EQ(one.text(), "in Monitor handling Elected: two leaders in term <n>: <n> and <n> (<n> s)");
  EXPECT_EQ(one.key(), other.key());
  const auto thrown =
      signature_of(run_of({{"0", "Monitor"}}, "Elected", proto::STEP_EXCEPTION, "two leaders in term 1: 2 and 1"));
  EXPECT_NE(thrown.key(), one.key()) << "another kind";
  const auto elsewhere = signature_of(
      run_of({{"0", "Follower"}}, "Elected", proto::STEP_ASSERTION_FAILED, "two leaders in term 1: 2 and 1"));
  EXPECT_NE(elsewhere.key(), one.key()) << "another actor type";
}

TEST(BugSignature, ADeadlockIsItsWaitingSetByTypes) {
  const auto deadlock = [](const std::vector<std::pair<std::string, std::string>>& waits) {
    proto::TraceFile trace = run_of({{"0", "Cell"}, {"1", "Cell"}, {"2", "Cell"}}, "IsMine", proto::STEP_OK, "");
    auto& result = *trace.mutable_result();
    result.set_status(proto::RUN_DEADLOCK);
    for (const auto& [actor, call] : waits) {
      auto& blocked = *result.add_blocked();
      blocked.set_actor(actor);
      blocked.set_waiting_for(call);
    }
    auto& pending = *result.add_pending();
    pending.set_id("env#1");
    pending.set_receiver("1");
    pending.set_type("Reveal");
    return signature_of(trace);
  };
  const auto ring = deadlock({{"0", "env#1"}, {"1", "env#2"}, {"2", "env#0"}});
  const auto pair = deadlock({{"0", "env#1"}, {"1", "env#0"}});
  EXPECT_EQ(ring, pair) << "which cells, and how many, is data";
  EXPECT_EQ(ring.what, "Cell waits for the reply to IsMine");
  EXPECT_EQ(deadlock({}).what, "pending, none enabled: Reveal to Cell") << "no call waits: what is left pending";
}

// A CAF assert in caf_main before the first step (CAF's own fixed_stack example): no event failed,
// no event at all; its verdict's text is its signature, and its trace is kept all the same.
TEST(BugSignature, ARunThatFailedBeforeItsFirstStepIsItsVerdictsText) {
  proto::TraceFile trace;
  trace.mutable_result()->set_status(proto::RUN_ASSERTION_FAILED);
  trace.mutable_result()->set_detail(
      "assertion failed in caf_main before the run: fixed_stack.cpp:62: Assertion `size_ < 2' failed.");
  Bug bug;
  bug.status = proto::RUN_ASSERTION_FAILED;
  bug.signature = signature_of(trace);
  bug.trace = trace;
  EXPECT_EQ(bug.signature.what,
            "assertion failed in caf_main before the run: fixed_stack.cpp:<n>: Assertion `size_ < <n>' failed.");
  BugGroups groups(100);
  groups.offer(bug);
  EXPECT_TRUE(groups.at(0).has_trace());
  EXPECT_EQ(groups.at(0).steps(), 0u);
}

Bug failing(const std::string& what, std::size_t steps, engine::ClassKey key = {}) {
  Bug bug;
  bug.status = proto::RUN_ASSERTION_FAILED;
  bug.signature = {proto::RUN_ASSERTION_FAILED, "Judge", "Arrive", what};
  bug.detail = what + " at step " + std::to_string(steps);
  bug.key = key;
  for (std::size_t i = 0; i <= steps; ++i) bug.trace.add_events();
  bug.trace.mutable_result()->set_status(proto::RUN_ASSERTION_FAILED);
  return bug;
}

// A failed check ends its actor, not the run: a second actor that fails later is a failure of
// the run too, worded as the hook words the first; the same way twice counts once.
TEST(BugSignature, EveryWayARunFailedIsAFailureOfItsOwn) {
  auto trace = run_of({{"0", "Monitor"}, {"1", "Node"}}, "Elected", proto::STEP_ASSERTION_FAILED, "two leaders");
  trace.mutable_result()->set_detail("assertion failed in actor 0 handling env#0 (Elected) at step 1: two leaders");
  for (int step = 2; step <= 3; ++step) {
    auto& later = *trace.add_events();
    later.set_step(static_cast<std::uint32_t>(step));
    later.set_actor("1");
    later.set_message("env#1");
    later.set_type("Vote");
    later.set_outcome(proto::STEP_EXCEPTION);
    later.set_detail("no quorum in term " + std::to_string(step));
  }
  const auto failures = failures_of(trace);
  ASSERT_EQ(failures.size(), 2U);
  EXPECT_EQ(failures[0].signature, signature_of(trace));
  EXPECT_EQ(failures[0].detail, trace.result().detail());
  EXPECT_EQ(failures[1].signature.status, proto::RUN_EXCEPTION);
  EXPECT_EQ(failures[1].signature.text(), "in Node handling Vote: no quorum in term <n>");
  EXPECT_EQ(failures[1].detail, "uncaught exception in actor 1 handling env#1 (Vote) at step 2: no quorum in term 2");
  trace.mutable_result()->set_status(proto::RUN_DEADLOCK);
  EXPECT_EQ(failures_of(trace).size(), 1U) << "a deadlock's run fails one way";
}

TEST(BugGroups, EachDistinctBugKeepsItsShortestRunAndCountsItsPathsAndClasses) {
  BugGroups groups(100);
  auto first = failing("x", 5);
  EXPECT_TRUE(groups.offer(first).added);
  auto longer = failing("x", 7);
  const auto kept = groups.offer(longer);
  EXPECT_FALSE(kept.added);
  EXPECT_FALSE(kept.changed);
  auto shorter = failing("x", 3);
  EXPECT_TRUE(groups.offer(shorter).changed);
  auto other = failing("y", 9);
  EXPECT_EQ(groups.offer(other).index, 1u);
  groups.count(0, 1, engine::ClassKey{1, 1});
  groups.count(0, 2, std::vector<engine::ClassKey>{{1, 1}, {2, 2}});
  const auto bugs = groups.bugs();
  ASSERT_EQ(bugs.size(), 2u);
  EXPECT_EQ(bugs[0].number, 1u);
  EXPECT_EQ(bugs[0].steps(), 3u);
  EXPECT_EQ(bugs[0].detail, "x at step 3");
  EXPECT_EQ(bugs[0].paths, 3u);
  EXPECT_EQ(bugs[0].classes, 2u);
  EXPECT_EQ(bugs[1].number, 2u);
  const auto tallies = groups.tallies();
  ASSERT_EQ(tallies.size(), 2u);
  EXPECT_EQ(tallies[0].signature_key, bugs[0].signature.key());
  EXPECT_EQ(tallies[0].paths, 3u);
  EXPECT_EQ(tallies[0].classes.size(), 2u);
}

TEST(BugGroups, PastTheCapADistinctBugIsCountedWithoutATrace) {
  BugGroups groups(1);
  auto first = failing("x", 5);
  groups.offer(first);
  auto second = failing("y", 2);
  EXPECT_TRUE(groups.offer(second).added);
  auto shorter = failing("y", 1);
  EXPECT_FALSE(groups.offer(shorter).changed) << "no room for a trace of y";
  EXPECT_TRUE(groups.at(0).has_trace());
  EXPECT_FALSE(groups.at(1).has_trace());
  EXPECT_EQ(groups.at(1).steps(), 0u);
  auto shorter_x = failing("x", 1);
  EXPECT_TRUE(groups.offer(shorter_x).changed) << "x's trace is replaced, not added";
  EXPECT_EQ(groups.at(0).steps(), 1u);
}

// wanted() says beforehand what offer() does with a run, so that a run no bug keeps needs no trace.
TEST(BugGroups, WhatARunWouldChangeIsKnownBeforeItsTraceIsMade) {
  BugGroups groups(2);
  const auto key = [](const std::string& what) { return failing(what, 1).signature.key(); };
  const auto said = [&](const std::string& what, std::size_t steps) {
    const auto wanted = groups.wanted(key(what), steps);
    return std::pair{wanted.changed, wanted.trace};
  };
  EXPECT_EQ(said("x", 5), std::pair(true, true)) << "a new bug";
  auto x = failing("x", 5);
  EXPECT_TRUE(groups.offer(x).changed);
  EXPECT_EQ(said("x", 5), std::pair(false, false)) << "as long as the one held";
  EXPECT_EQ(said("x", 9), std::pair(false, false));
  EXPECT_EQ(said("x", 4), std::pair(true, true)) << "shorter";
  auto y = failing("y", 3);
  groups.offer(y);
  EXPECT_EQ(said("z", 1), std::pair(true, false)) << "a new bug past the cap: counted, no trace";
  auto z = failing("z", 1);
  const auto offered = groups.offer(z);
  EXPECT_TRUE(offered.added);
  EXPECT_FALSE(groups.at(offered.index).has_trace());
  EXPECT_EQ(said("z", 0), std::pair(false, false)) << "no room for a trace of z";
  auto shorter_z = failing("z", 0);
  EXPECT_FALSE(groups.offer(shorter_z).changed);
}

// A portfolio's sampled run that found a bug first is its trace until a shorter run comes, or a
// systematic one as long (its FIFO order after the prefix reads more easily); who found it stays.
TEST(BugGroups, ASystematicRunAsLongTakesTheTraceOfASampledOneAndNotTheOtherWayRound) {
  BugGroups groups(5);
  auto sampled = failing("x", 6);
  sampled.sampled = true;
  sampled.found_by = "pct depth 3";
  sampled.found_at_run = 2;
  groups.offer(sampled);
  const auto key = failing("x", 6).signature.key();
  EXPECT_FALSE(groups.wanted(key, 6, /*sampled=*/true).changed) << "another sampled run as long";
  EXPECT_TRUE(groups.wanted(key, 6, /*sampled=*/false).changed);
  auto another_sampled = failing("x", 6);
  another_sampled.sampled = true;
  EXPECT_FALSE(groups.offer(another_sampled).changed);
  auto systematic = failing("x", 6);
  systematic.found_by = "systematic";
  systematic.found_at_run = 40;
  EXPECT_TRUE(groups.offer(systematic).changed);
  EXPECT_FALSE(groups.at(0).sampled);
  EXPECT_EQ(groups.at(0).found_by, "pct depth 3");
  EXPECT_EQ(groups.at(0).found_at_run, 2u);
  EXPECT_FALSE(groups.wanted(key, 6, /*sampled=*/false).changed) << "a systematic run held: as long is not better";
  auto shorter_sampled = failing("x", 5);
  shorter_sampled.sampled = true;
  EXPECT_TRUE(groups.offer(shorter_sampled).changed) << "shorter still wins";
  EXPECT_TRUE(groups.at(0).sampled);
}

}  // namespace
}  // namespace exocheck::coordinator
