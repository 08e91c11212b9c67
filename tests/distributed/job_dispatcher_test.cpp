// The coordinator's rules without a transport: offers before leases, one job at a time, a result
// accepted once, leases issued again on a deadline or a lost agent, refusals and launch failures.

#include <gtest/gtest.h>

#include <future>

#include "job_dispatcher.hpp"

namespace exocheck::coordinator {
namespace {

constexpr char kSha[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// A one-path program: main sends env#1 to actor 0, which handles it. Its only run is complete.
proto::LeaseResult one_path_run(std::uint64_t lease_id, proto::RunStatus status = proto::RUN_COMPLETED) {
  proto::LeaseResult result;
  result.set_lease_id(lease_id);
  auto& initial = *result.add_events();
  initial.set_step(0);
  initial.set_actor("env");
  initial.set_sender("env");
  initial.add_created("0");
  auto& sent = *initial.add_sent();
  sent.set_id("env#1");
  sent.set_receiver("0");
  sent.set_type("Go");
  auto& step = *result.add_events();
  step.set_step(1);
  step.set_actor("0");
  step.set_message("env#1");
  step.set_sender("env");
  step.set_type("Go");
  step.add_enabled("env#1");
  auto& clock = *step.add_clock();
  clock.set_actor("0");
  clock.set_count(1);
  result.mutable_result()->set_status(status);
  result.mutable_result()->set_steps(1);
  result.mutable_result()->set_detail(status == proto::RUN_LAUNCH_FAILED ? "not linked with the hook" : "");
  result.set_hello_seen(status != proto::RUN_LAUNCH_FAILED);
  return result;
}

proto::ResultBatch batch_of(const proto::LeaseResult& result) {
  proto::ResultBatch batch;
  *batch.add_results() = result;
  return batch;
}

proto::SubmitRequest submission(proto::Reduction reduction = proto::REDUCTION_TRANSDPOR) {
  proto::SubmitRequest request;
  request.set_subject("/bin/subject");
  request.add_args("--workers");
  request.add_args("2");
  request.set_sha256(kSha);
  request.mutable_settings()->set_reduction(reduction);
  request.mutable_settings()->set_heuristic(proto::FIFO);
  request.mutable_settings()->set_sleep_sets(true);
  request.mutable_settings()->set_run_timeout_ms(1000);
  return request;
}

proto::JobCheck check(std::uint64_t job_id, bool accepted, const std::string& reason = "") {
  proto::JobCheck answer;
  answer.set_job_id(job_id);
  answer.set_accepted(accepted);
  answer.set_reason(reason);
  return answer;
}

class JobDispatcherTest : public testing::Test {
 protected:
  // An agent that accepted the job; returns its id.
  std::uint64_t accepting_agent(std::uint64_t job_id, const std::string& name = "a") {
    const auto agent = dispatcher.attach_agent(name, 1);
    const auto offer = dispatcher.work_for(agent).offer;
    EXPECT_TRUE(offer.has_value());
    dispatcher.record_check(agent, check(job_id, true));
    return agent;
  }

  proto::JobState state(std::uint64_t job_id) const { return dispatcher.progress(job_id).value().state(); }

  JobDispatcher dispatcher{std::chrono::milliseconds(100)};
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

TEST_F(JobDispatcherTest, OffersTheJobBeforeAnyLease) {
  const auto job = dispatcher.submit(submission());
  const auto agent = dispatcher.attach_agent("a", 4);
  const auto first = dispatcher.work_for(agent);
  ASSERT_TRUE(first.offer.has_value());
  EXPECT_EQ(first.offer->job_id(), job);
  EXPECT_EQ(first.offer->subject(), "/bin/subject");
  EXPECT_EQ(first.offer->args_size(), 2);
  EXPECT_EQ(first.offer->sha256(), kSha);
  EXPECT_EQ(first.offer->run_timeout_ms(), 1000u);
  EXPECT_TRUE(first.leases.empty());
  EXPECT_TRUE(dispatcher.work_for(agent).leases.empty()) << "no lease before the agent accepted";
  dispatcher.record_check(agent, check(job, true));
  const auto leases = dispatcher.work_for(agent).leases;
  ASSERT_EQ(leases.size(), 1u) << "one schedule is known before the first run";
  EXPECT_EQ(leases[0].job_id(), job);
  EXPECT_EQ(leases[0].request().prefix_size(), 0);
}

TEST_F(JobDispatcherTest, AcceptsAResultOnceAndEndsTheJob) {
  const auto job = dispatcher.submit(submission());
  EXPECT_FALSE(dispatcher.wait_until_over(job, Clock::now()));
  const auto agent = accepting_agent(job);
  const auto lease = dispatcher.work_for(agent).leases.at(0);
  // What Watch waits for to send the final state at once: woken by the result that ends the job.
  auto waiter = std::async(std::launch::async,
                           [&] { return dispatcher.wait_until_over(job, Clock::now() + std::chrono::seconds(60)); });
  EXPECT_EQ(dispatcher.accept_results(agent, batch_of(one_path_run(lease.lease_id()))), 1u);
  EXPECT_EQ(waiter.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_TRUE(waiter.get());
  EXPECT_TRUE(dispatcher.wait_until_over(job + 1, Clock::now()));  // unknown
  EXPECT_EQ(dispatcher.accept_results(agent, batch_of(one_path_run(lease.lease_id()))), 0u);
  const auto progress = dispatcher.progress(job).value();
  EXPECT_EQ(progress.state(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(progress.paths(), 1u);
  EXPECT_EQ(progress.classes(), 1u);
  EXPECT_EQ(progress.outstanding(), 0u);
}

TEST_F(JobDispatcherTest, IssuesALeaseAgainWhenItsDeadlinePasses) {
  const auto job = dispatcher.submit(submission());
  const auto agent = accepting_agent(job);
  const auto first = dispatcher.work_for(agent).leases.at(0);
  dispatcher.tick(Clock::now() + std::chrono::milliseconds(500));
  EXPECT_TRUE(dispatcher.work_for(agent).leases.empty()) << "run timeout 1 s: not yet expired, nothing new";
  dispatcher.tick(Clock::now() + std::chrono::seconds(3));
  const auto again = dispatcher.work_for(agent).leases;
  ASSERT_EQ(again.size(), 1u);
  EXPECT_NE(again[0].lease_id(), first.lease_id());
  EXPECT_EQ(dispatcher.accept_results(agent, batch_of(one_path_run(first.lease_id()))), 0u) << "expired lease";
  EXPECT_EQ(dispatcher.accept_results(agent, batch_of(one_path_run(again[0].lease_id()))), 1u);
  EXPECT_EQ(state(job), proto::JOB_COMPLETE_NO_BUG);
}

TEST_F(JobDispatcherTest, IssuesTheLeasesOfALostAgentToAnother) {
  const auto job = dispatcher.submit(submission());
  const auto lost = accepting_agent(job, "lost");
  const auto lease = dispatcher.work_for(lost).leases.at(0);
  const auto other = accepting_agent(job, "other");
  EXPECT_TRUE(dispatcher.work_for(other).leases.empty()) << "the only schedule is out";
  dispatcher.detach_agent(lost);
  const auto again = dispatcher.work_for(other).leases;
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(dispatcher.accept_results(other, batch_of(one_path_run(lease.lease_id()))), 0u);
  EXPECT_EQ(dispatcher.accept_results(other, batch_of(one_path_run(again[0].lease_id()))), 1u);
  EXPECT_EQ(state(job), proto::JOB_COMPLETE_NO_BUG);
}

TEST_F(JobDispatcherTest, RunsOneJobAtATime) {
  const auto first = dispatcher.submit(submission());
  const auto second = dispatcher.submit(submission(proto::REDUCTION_DPOR));
  EXPECT_EQ(state(first), proto::JOB_RUNNING);
  EXPECT_EQ(state(second), proto::JOB_QUEUED);
  const auto agent = accepting_agent(first);
  const auto lease = dispatcher.work_for(agent).leases.at(0);
  dispatcher.accept_results(agent, batch_of(one_path_run(lease.lease_id())));
  EXPECT_EQ(state(first), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(state(second), proto::JOB_RUNNING);
  const auto offer = dispatcher.work_for(agent).offer;
  ASSERT_TRUE(offer.has_value());
  EXPECT_EQ(offer->job_id(), second);
}

TEST_F(JobDispatcherTest, FailsAJobEveryAgentRefusesAndStartsTheNext) {
  const auto refused = dispatcher.submit(submission());
  const auto next = dispatcher.submit(submission());
  const auto a = dispatcher.attach_agent("a", 1);
  const auto b = dispatcher.attach_agent("b", 1);
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
  const auto lease = dispatcher.work_for(agent).leases.at(0);
  dispatcher.accept_results(agent, batch_of(one_path_run(lease.lease_id(), proto::RUN_LAUNCH_FAILED)));
  const auto progress = dispatcher.progress(job).value();
  EXPECT_EQ(progress.state(), proto::JOB_FAILED);
  EXPECT_EQ(progress.error(), "agent a could not run the subject: not linked with the hook");
  EXPECT_EQ(progress.paths(), 0u);
}

TEST_F(JobDispatcherTest, CancelDropsAQueuedJobAndStopsARunningOne) {
  const auto running = dispatcher.submit(submission());
  const auto queued = dispatcher.submit(submission());
  EXPECT_TRUE(dispatcher.cancel(queued));
  EXPECT_EQ(state(queued), proto::JOB_LIMIT_REACHED);
  EXPECT_FALSE(dispatcher.cancel(queued)) << "already over";
  EXPECT_TRUE(dispatcher.cancel(running));
  EXPECT_EQ(state(running), proto::JOB_LIMIT_REACHED);
  EXPECT_FALSE(dispatcher.cancel(99));
}

}  // namespace
}  // namespace exocheck::coordinator
