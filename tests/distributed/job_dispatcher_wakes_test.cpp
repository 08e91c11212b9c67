// When the dispatcher wakes an agent's stream for a write: at once for what the agent needs now (a
// lease, a split asked, anything for a hungry agent), with its next report for what a busy agent
// does not need yet (backtrack requests, the ends of subtrees it gave away, acks), so that a
// thousand agents are not sent a message for each (DESIGN.md, "Distribution").

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "dispatcher_messages.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {
namespace {

using namespace dispatcher_testing;

class DispatcherWakesTest : public testing::Test {
 protected:
  // An agent that accepted the job, its wakes counted under `name`; returns its id.
  std::uint64_t accepting_agent(std::uint64_t job_id, const std::string& name) {
    const auto agent = dispatcher.attach_agent(hello(name), [this, name] { ++wakes[name]; });
    EXPECT_TRUE(dispatcher.work_for(agent).offer.has_value());
    dispatcher.record_check(agent, check(job_id, true));
    return agent;
  }

  proto::Work work(std::uint64_t agent) {
    auto work = dispatcher.work_for(agent).work;
    return work ? *work : proto::Work{};
  }

  // a explores the whole tree and gives part of it to b; returns the two leases.
  std::pair<std::uint64_t, std::uint64_t> split_between(std::uint64_t job, std::uint64_t a, std::uint64_t b) {
    const auto first = work(a);
    const auto whole = first.leases(0).lease_id();
    EXPECT_EQ(first.split_size(), 1) << "asked to split for the hungry b";
    auto answer = report(job, 1);
    answer.set_seq(1);
    auto& split = *answer.add_splits();
    split.set_lease_id(whole);
    split.mutable_given()->set_id(5);
    split.mutable_given()->add_prefix("env#2");
    dispatcher.accept_report(a, answer);
    const auto given = work(b).leases();
    EXPECT_EQ(given.size(), 1);
    return {whole, given.empty() ? 0 : given[0].lease_id()};
  }

  // b's race above its root, for a, and its lease's end.
  proto::Report raced_and_done(std::uint64_t job, std::uint64_t part) {
    auto raised = report(job, 1);
    raised.set_seq(1);
    auto& race = *raised.add_backtracks();
    race.set_lease_id(part);
    race.set_request(request_for("env#2", "env#1"));
    add_done(raised, part, 2, {1, 2});
    return raised;
  }

  std::map<std::string, int> wakes;
  JobDispatcher dispatcher{DispatcherOptions{std::chrono::milliseconds(0), nullptr}};
};

TEST_F(DispatcherWakesTest, WhatABusyAgentDoesNotNeedYetAnswersItsNextReport) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto b = accepting_agent(job, "b");
  const auto [whole, part] = split_between(job, a, b);
  const auto woken = wakes["a"];
  EXPECT_FALSE(dispatcher.accept_report(b, raced_and_done(job, part))) << "b's end is acked with its next work";
  EXPECT_EQ(wakes["a"], woken) << "a, busy, is not woken for the request and the notice";

  auto figures = report(job, 1);
  figures.set_seq(2);
  figures.add_progress()->set_lease_id(whole);
  EXPECT_TRUE(dispatcher.accept_report(a, figures)) << "a's next report is answered with them";
  const auto answer = work(a);
  ASSERT_EQ(answer.backtracks_size(), 1);
  EXPECT_EQ(answer.backtracks(0).lease_id(), whole);
  ASSERT_EQ(answer.finished_size(), 1);
  EXPECT_EQ(answer.finished(0).subtree_id(), 5u);
  EXPECT_EQ(answer.acked_report(), 2u);
  EXPECT_EQ(work(b).acked_report(), 1u) << "b's ack waited for it";
}

// A flow of requests is written as it comes, kRoutedPerWrite at a time: waiting for the owner's
// next report, a second's were in flight, which the journal holds until the owner has them.
TEST_F(DispatcherWakesTest, ABusyAgentIsWokenForAWriteOfRequests) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto b = accepting_agent(job, "b");
  const auto [whole, part] = split_between(job, a, b);
  const auto raising = [&, part = part](int from, int to, std::uint64_t seq) {
    auto raised = report(job, 1);
    raised.set_seq(seq);
    for (int k = from; k < to; ++k) {
      auto& race = *raised.add_backtracks();
      race.set_lease_id(part);
      race.set_request(request_for("env#" + std::to_string(k + 2), "env#1"));
    }
    dispatcher.accept_report(b, raised);
  };
  const auto woken = wakes["a"];
  raising(0, kRoutedPerWrite - 1, 1);
  EXPECT_EQ(wakes["a"], woken) << "a, busy, takes fewer with its next report";
  raising(kRoutedPerWrite - 1, kRoutedPerWrite, 2);
  EXPECT_EQ(wakes["a"], woken + 1) << "a write's worth goes at once";
  const auto sent = work(a);
  ASSERT_EQ(sent.backtracks_size(), kRoutedPerWrite);
  EXPECT_EQ(sent.backtracks(0).lease_id(), whole);
}

// An agent keeps its reports until acked: one with megabytes of requests is acked at once, where
// eight of them waited for one ack.
TEST_F(DispatcherWakesTest, AReportOfManyRequestBytesIsAckedAtOnce) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto b = accepting_agent(job, "b");
  const auto [whole, part] = split_between(job, a, b);
  // Whether b's stream is to write at once after this report (accept_report's answer).
  const auto raising = [&, part = part](std::size_t bytes, std::uint64_t seq) {
    auto raised = report(job, 1);
    raised.set_seq(seq);
    auto& race = *raised.add_backtracks();
    race.set_lease_id(part);
    race.set_request(request_for("env#2 " + std::string(bytes, 'x'), "env#1"));
    return dispatcher.accept_report(b, raised);
  };
  EXPECT_FALSE(raising(kBytesAckedAtOnce / 2, 1)) << "b, busy, has its ack with its next work";
  EXPECT_TRUE(raising(kBytesAckedAtOnce, 2)) << "b's report of many bytes is acked at once";
  EXPECT_EQ(work(b).acked_report(), 2u);
  EXPECT_EQ(work(a).backtracks_size(), 2) << "both requests for a, whole: " << whole;
}

TEST_F(DispatcherWakesTest, AHungryAgentIsWokenAtOnceAndABusyOneWithinTheBound) {
  const auto job = dispatcher.submit(submission());
  const auto a = accepting_agent(job, "a");
  const auto b = accepting_agent(job, "b");
  const auto [whole, part] = split_between(job, a, b);
  auto idle = report(job, 1, true);
  idle.set_seq(2);
  dispatcher.accept_report(a, idle);
  const auto woken = wakes["a"];
  dispatcher.accept_report(b, raced_and_done(job, part));
  EXPECT_EQ(wakes["a"], woken + 1) << "a, hungry, has its request at once";
  EXPECT_EQ(work(a).backtracks_size(), 1);

  // A busy agent that does not report is sent what it is owed once kOwedAtMost has passed.
  const auto c = accepting_agent(job, "c");
  dispatcher.tick(Clock::now());
  auto ack_only = report(job, 0);
  ack_only.set_seq(8);  // every kReportsPerAck-th report is acked even with nothing else to send
  dispatcher.accept_report(c, ack_only);
  const auto before = wakes["c"];
  dispatcher.tick(Clock::now());
  EXPECT_EQ(wakes["c"], before);
  dispatcher.tick(Clock::now() + kOwedAtMost);
  EXPECT_EQ(wakes["c"], before + 1);
  EXPECT_EQ(work(c).acked_report(), 8u);
}

}  // namespace
}  // namespace exocheck::coordinator
