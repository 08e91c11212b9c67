// CAF programs as their authors write them (issue 35's subjects, plain CAF, no exocheck header):
// an after(...) idle timeout, a stream source -> stage -> sink, caf_main waiting for its actors
// twice, and philosophers that think and eat for ever on delayed_send. Each bug is found and
// replays; each fixed variant explores to its end, or is reported bounded when it never ends.

#include <string>
#include <vector>

#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

class ExploreCafPrograms : public ExploreTest {
 protected:
  // Figures of the unordered model, as first measured; CAF's own order, the default for a CAF
  // program, has tests of its own (explore_caf_test.cpp, CafDelivery).
  ExploreCafPrograms() { delivery_ = {"--delivery", "unordered"}; }

  struct Row {
    std::vector<std::string> args;
    std::uint64_t classes;
    bool bug;
  };

  /// One worker, --keep-going: every class of `subject` with each row's arguments, explored to
  /// its end with one execution per class.
  void expect_rows(const std::string& subject, const std::vector<Row>& rows) const {
    for (const Row& row : rows) {
      SCOPED_TRACE(subject + (row.args.empty() ? "" : " " + row.args.front()));
      const auto result = figures({"--workers", "1", "--keep-going"}, subject, row.args);
      EXPECT_EQ(result.exit_code, row.bug ? 1 : 0) << result.summary.dump(2);
      EXPECT_TRUE(result.complete);
      EXPECT_EQ(result.classes, row.classes);
      EXPECT_EQ(result.paths, row.classes);
    }
  }
};

// The batcher's after(50ms) flush may come between any two items: where it does, the buffer it
// forgot to empty is sent twice.
TEST_F(ExploreCafPrograms, AnIdleTimeoutBetweenTwoItemsDuplicatesAPartialBatch) {
  if (!built("caf-batcher")) GTEST_SKIP() << "caf-batcher not built (no libcaf-dev)";
  expect_rows("caf-batcher", {Row{{}, 8, true}, Row{{"--fixed"}, 8, false}});
  expect_bug_replays(figures({"--workers", "1"}, "caf-batcher"), "RUN_ASSERTION_FAILED",
                     {"Assertion `self->state.received.size() == kItems' failed."});
}

// A stream's batches, credit and ticks explored to the end: the controller that stops the sink
// when the source has produced everything loses elements still on their way.
TEST_F(ExploreCafPrograms, AStreamStoppedWhenProducedNotConsumedLosesElements) {
  if (!built("caf-stream")) GTEST_SKIP() << "caf-stream not built (no libcaf-dev)";
  expect_rows("caf-stream", {Row{{"--fixed"}, 182, false}});
  const auto buggy = figures({"--workers", "1"}, "caf-stream");
  EXPECT_EQ(buggy.exit_code, 1) << buggy.summary.dump(2);
  expect_bug_replays(buggy, "RUN_ASSERTION_FAILED", {"Assertion `self->state.count == expected' failed."});
}

// caf_main waits for its actors twice: phase two, after the first wait, is explored as phase one
// is (the adapter refused it before), and its lost deposit is found.
TEST_F(ExploreCafPrograms, CafMainsSecondPhaseIsExplored) {
  if (!built("caf-phases")) GTEST_SKIP() << "caf-phases not built (no libcaf-dev)";
  expect_rows("caf-phases", {Row{{}, 12, true}, Row{{"--fixed"}, 4, false}});
  expect_bug_replays(figures({"--workers", "1"}, "caf-phases"), "RUN_ASSERTION_FAILED",
                     {"(await_all_actors_done)", "Assertion `balance == 100 * clients' failed."});
}

// Philosophers that think and eat for ever on delayed_send: the deadlock is found; the fixed
// table never ends and is reported bounded (exit 3), never complete.
TEST_F(ExploreCafPrograms, TimedPhilosophersDeadlockOrRunForEver) {
  if (!built("caf-philosophers")) GTEST_SKIP() << "caf-philosophers not built (no libcaf-dev)";
  const std::vector<std::string> bounds{"--workers", "1", "--step-limit", "300", "--max-paths", "20"};
  expect_bug_replays(figures(bounds, "caf-philosophers", {"--timed"}), "RUN_DEADLOCK", {"waits for the reply to"});
  const auto fixed = figures(bounds, "caf-philosophers", {"--timed", "--fixed"});
  EXPECT_EQ(fixed.exit_code, 3) << fixed.summary.dump(2);
  EXPECT_FALSE(fixed.complete);
  EXPECT_EQ(fixed.bugs, 0u);
}

// The reductions reach every class exhaustive exploration (without sleep sets) reaches on the
// fixed variants, where blocking actors, receive timeouts, quiescent awaits and idle timeouts meet.
TEST_F(ExploreCafPrograms, ReductionsReachWhatExhaustiveReaches) {
  struct Case {
    std::string subject;
    std::vector<std::string> args;
  };
  for (const Case& c : {Case{"caf-batcher", {"--fixed"}}, Case{"caf-phases", {"--fixed"}},
                        Case{"caf-blocking", {"--fixed"}}, Case{"caf_faults", {"--receive-timeout"}},
                        Case{"caf_faults", {"--thread-timeout"}}, Case{"caf_faults", {"--await=chain"}}}) {
    if (!built(c.subject)) GTEST_SKIP() << c.subject << " not built (no libcaf-dev)";
    SCOPED_TRACE(c.subject + " " + c.args.front());
    const auto exhaustive =
        figures({"--workers", "1", "--reduction", "exhaustive", "--no-sleep-sets"}, c.subject, c.args);
    EXPECT_TRUE(exhaustive.complete);
    for (const char* reduction : {"optimal", "transdpor", "dpor"}) {
      const auto reduced = figures({"--workers", "1", "--reduction", reduction}, c.subject, c.args);
      EXPECT_EQ(reduced.classes, exhaustive.classes) << reduction;
    }
  }
}

}  // namespace
}  // namespace exocheck::explore_test
