// The coordinator's dispatcher across a lost stream and a restart: an agent back within the grace
// keeps its subtree, one back past it finds its subtree given to another, and a restarted
// coordinator resumes from its journal.

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "dispatcher_messages.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {
namespace {

using namespace dispatcher_testing;

struct MemoryJournal final : Journal {
  void append(const proto::JournalEntry& entry) override {
    entries.push_back(entry);
    size += entry.ByteSizeLong();
  }
  std::uint64_t bytes() const override { return size; }
  void rewrite(const std::string& bytes) override {
    std::size_t whole = 0;
    entries = unframe(bytes, whole);
    EXPECT_EQ(whole, bytes.size());
    size = 0;
    for (const auto& entry : entries) size += entry.ByteSizeLong();
    ++rewrites;
  }
  std::vector<proto::JournalEntry> entries;
  std::uint64_t size = 0;
  int rewrites = 0;
};

/// The hello of agent `name` back on a new stream, holding `held` of `job` after `seen` leases.
proto::AgentHello back(const std::string& name, std::uint64_t job, std::vector<std::uint64_t> held,
                       std::uint64_t seen) {
  auto out = hello(name);
  out.set_coordinator_instance("c");
  out.set_job_id(job);
  for (const auto lease : held) out.add_held(lease);
  out.set_leases_seen(seen);
  return out;
}

// Each test twice: with the journal as written, and compacted whenever it doubled.
class ReattachTest : public testing::TestWithParam<std::uint64_t> {
 protected:
  std::uint64_t accepting(JobDispatcher& on, const proto::AgentHello& agent, std::uint64_t job) {
    const auto id = on.attach_agent(agent);
    EXPECT_TRUE(on.work_for(id).offer);
    on.record_check(id, check(job, true));
    return id;
  }
  static proto::Work work(JobDispatcher& on, std::uint64_t agent) {
    auto work = on.work_for(agent).work;
    return work ? *work : proto::Work{};
  }
  /// a explores the whole tree, b the part a split off (env#2); returns {a, b, whole, part}.
  std::array<std::uint64_t, 4> split_between_two(JobDispatcher& on, std::uint64_t job) {
    const auto a = accepting(on, hello("a"), job);
    const auto whole = work(on, a).leases(0).lease_id();
    const auto b = accepting(on, hello("b"), job);
    work(on, a);  // the split asked
    auto answer = report(job, 1);
    answer.set_seq(1);
    answer.add_splits()->set_lease_id(whole);
    answer.mutable_splits(0)->mutable_given()->set_id(5);
    answer.mutable_splits(0)->mutable_given()->add_prefix("env#2");
    on.accept_report(a, answer);
    const auto part = work(on, b).leases(0).lease_id();
    return {a, b, whole, part};
  }

  MemoryJournal journal;
  DispatcherOptions options{std::chrono::seconds(10), &journal, "c", GetParam()};
};

TEST_P(ReattachTest, AnAgentBackWithinTheGraceKeepsItsSubtreeAndGetsWhatItMissed) {
  JobDispatcher dispatcher(options);
  const auto job = dispatcher.submit(submission());
  const auto [a, b, whole, part] = split_between_two(dispatcher, job);
  dispatcher.detach_agent(a);  // a's stream broke; a explores on
  auto raised = report(job, 1);
  raised.set_seq(1);
  auto& race = *raised.add_backtracks();
  race.set_lease_id(part);
  race.set_request(request_for("env#2", ""));
  add_done(raised, part, 2, {1, 2});
  dispatcher.accept_report(b, raised);
  EXPECT_EQ(dispatcher.progress(job)->outstanding(), 1u) << "the whole tree still is a's";

  const auto again = accepting(dispatcher, back("a", job, {whole}, 1), job);
  const auto missed = work(dispatcher, again);
  EXPECT_EQ(missed.leases_size(), 0) << "it has its subtree";
  ASSERT_EQ(missed.backtracks_size(), 1);
  EXPECT_EQ(missed.backtracks(0).lease_id(), whole);
  ASSERT_EQ(missed.finished_size(), 1);
  EXPECT_EQ(missed.finished(0).subtree_id(), 5u);

  auto done = report(job, 1);
  done.set_seq(2);
  add_done(done, whole, 3, {2, 3});
  dispatcher.accept_report(again, done);
  EXPECT_EQ(work(dispatcher, again).acked_report(), 2u);
  const auto progress = dispatcher.progress(job).value();
  EXPECT_EQ(progress.state(), proto::JOB_COMPLETE_NO_BUG);
  EXPECT_EQ(progress.paths(), 5u);
  EXPECT_EQ(progress.classes(), 3u);
  EXPECT_EQ(progress.subtrees(), 2u) << "nothing explored anew";
}

TEST_P(ReattachTest, PastTheGraceAnAbsentAgentsSubtreeGoesToAnother) {
  JobDispatcher dispatcher(options);
  const auto job = dispatcher.submit(submission());
  const auto a = accepting(dispatcher, hello("a"), job);
  const auto whole = work(dispatcher, a).leases(0).lease_id();
  dispatcher.detach_agent(a);
  const auto c = accepting(dispatcher, hello("c"), job);
  EXPECT_EQ(work(dispatcher, c).leases_size(), 0) << "within the grace";
  dispatcher.tick(Clock::now() + std::chrono::seconds(11));
  const auto taken = work(dispatcher, c);
  ASSERT_EQ(taken.leases_size(), 1);
  EXPECT_EQ(taken.leases(0).lease_id(), whole);
  // a comes back late: what it held is another's now.
  const auto late = accepting(dispatcher, back("a", job, {whole}, 1), job);
  const auto dropped = work(dispatcher, late);
  ASSERT_EQ(dropped.drop_size(), 1);
  EXPECT_EQ(dropped.drop(0), whole);
}

TEST_P(ReattachTest, ARestartedCoordinatorResumesFromItsJournal) {
  std::uint64_t job = 0, whole = 0;
  {
    JobDispatcher before(options);
    auto request = submission();
    request.mutable_settings()->set_keep_going(true);
    job = before.submit(request);
    const auto [a, b, w, part] = split_between_two(before, job);
    whole = w;
    auto found = report(job, 1);
    found.set_seq(1);
    add_bug(found, part, {"env#2", "0#1"}, 1);
    add_done(found, part, 2, {1, 2});
    before.accept_report(b, found);
  }  // killed: its agents explore on

  if (GetParam() == 1) {
    EXPECT_GT(journal.rewrites, 0);
  }
  JobDispatcher after(options);
  after.restore(journal.entries);
  const auto restored = after.progress(job).value();
  EXPECT_EQ(restored.state(), proto::JOB_RUNNING);
  EXPECT_EQ(restored.paths(), 2u);
  EXPECT_EQ(restored.classes(), 2u);
  EXPECT_EQ(restored.bugs(), 1u);
  EXPECT_EQ(restored.subtrees(), 2u);
  EXPECT_EQ(restored.outstanding(), 1u);
  ASSERT_EQ(after.bugs(job).size(), 1u);
  EXPECT_EQ(after.bugs(job)[0].trace.prefix(1), "0#1");

  const auto a = accepting(after, back("a", job, {whole}, 1), job);
  const auto missed = work(after, a);
  ASSERT_EQ(missed.finished_size(), 1) << "the notice of b's end, which a may not have had";
  // a's split answer, sent again (it was not acked before the kill): applied once only.
  auto again = report(job, 1);
  again.set_seq(1);
  again.add_splits()->set_lease_id(whole);
  again.mutable_splits(0)->mutable_given()->set_id(5);
  again.mutable_splits(0)->mutable_given()->add_prefix("env#2");
  after.accept_report(a, again);
  EXPECT_EQ(work(after, a).acked_report(), 1u);
  auto done = report(job, 1);
  done.set_seq(2);
  add_done(done, whole, 3, {2, 3});
  after.accept_report(a, done);
  const auto progress = after.progress(job).value();
  EXPECT_EQ(progress.state(), proto::JOB_BUG_FOUND);
  EXPECT_EQ(progress.paths(), 5u);
  EXPECT_EQ(progress.classes(), 3u);
  EXPECT_EQ(progress.subtrees(), 2u);
}

// explore --from: each lease's end brings its passing path nearest the failure; the job keeps the
// nearest of them, across a restart, and journals only those it keeps.
TEST_P(ReattachTest, TheNearestPassingRunOfTheLeasesIsKeptThroughARestart) {
  const auto nearest = [](proto::Report& out, std::uint64_t shared, const std::string& marker) {
    auto& done = *out.mutable_done(out.done_size() - 1);
    done.mutable_nearest_passing()->add_prefix(marker);
    done.set_nearest_shared(shared);
  };
  std::uint64_t job = 0, whole = 0;
  {
    JobDispatcher before(options);
    auto request = submission();
    request.mutable_settings()->add_nearest_to("env#1");
    request.mutable_settings()->add_nearest_to("env#2");
    job = before.submit(request);
    const auto [a, b, w, part] = split_between_two(before, job);
    whole = w;
    EXPECT_FALSE(before.nearest_passing(job)) << "no lease done yet";
    auto done = report(job, 1);
    done.set_seq(1);
    add_done(done, part, 2, {1, 2});
    nearest(done, 1, "b's");
    before.accept_report(b, done);
    ASSERT_TRUE(before.nearest_passing(job));
    EXPECT_EQ(before.nearest_passing(job)->second, 1u);
  }
  JobDispatcher after(options);
  after.restore(journal.entries);
  ASSERT_TRUE(after.nearest_passing(job));
  EXPECT_EQ(after.nearest_passing(job)->first.prefix(0), "b's");
  const auto a = accepting(after, back("a", job, {whole}, 1), job);
  auto done = report(job, 1);
  done.set_seq(2);  // its first report was the split's
  add_done(done, whole, 3, {2, 3});
  nearest(done, 0, "a's");  // shares less: not kept, not journaled
  after.accept_report(a, done);
  EXPECT_EQ(after.nearest_passing(job)->first.prefix(0), "b's");
  int a_done_journaled = 0;
  for (const auto& entry : journal.entries) {
    for (const auto& record : entry.records()) {
      if (!record.has_done() || record.done().lease_id() != whole) continue;
      ++a_done_journaled;
      EXPECT_FALSE(record.done().has_nearest_passing());
    }
  }
  if (GetParam() != 1) {
    EXPECT_EQ(a_done_journaled, 1);  // once; a compacted journal holds no Done
  }
  EXPECT_EQ(after.progress(job)->state(), proto::JOB_COMPLETE_NO_BUG);
}

INSTANTIATE_TEST_SUITE_P(Journal, ReattachTest, testing::Values(DispatcherOptions{}.compact_at_bytes, 1),
                         [](const auto& info) {
                           return info.param == 1 ? std::string("Compacted") : std::string("AsWritten");
                         });

}  // namespace
}  // namespace exocheck::coordinator
