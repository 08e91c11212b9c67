// A free run's log (runtime_hook/src/free_run_recording.hpp) made into a trace: steps in the order
// they began whatever order the threads' lines came in, escapes undone, torn and repeated lines
// skipped, and the result each way a run can fail.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exocheck/wire/free_run_log.hpp"
#include "free_run_trace.hpp"

namespace exocheck::cli {
namespace {

proto::TraceFile traced(const std::string& log, ProcessEnd end = {}) {
  return trace_of_free_run(log, end, "./subject", {"--flag"});
}

/// A compact step record as the hook writes it: time, actor index, sender index plus one, ordinal,
/// type index.
std::string compact(std::vector<std::uint64_t> numbers) {
  std::string record(1, wire::free_run_log::kCompactStep);
  for (const std::uint64_t number : numbers) {
    char bytes[10];
    record.append(bytes, wire::free_run_log::put_number(bytes, number));
  }
  return record;
}

TEST(FreeRunTrace, StepsFollowTheirLamportTimesWhicheverThreadWroteThemFirst) {
  // Thread b's lines were written before thread a's; 0#1 chose 1 of 3; 1#1's detail has a tab and
  // a newline; its line came twice (a crash's flush); the last line was torn by the log's end.
  const std::string log =
      "P\t./program\t--relay\t100\n"
      "S\t2\t1\t0#1\tPing\tok\t3/1\t\n"
      "S\t1\t0\tenv#1\tStart\tok\t\t\n"
      "S\t3\t0\t1#1\tPong\tassertion\t\tv=1\\tw=2\\nend\n"
      "S\t3\t0\t1#1\tPong\tassertion\t\tv=1\\tw=2\\nend\n"
      "S\t4\t1\t0#2\tPi";
  const auto trace = traced(log, {.exit_code = 1});
  EXPECT_TRUE(trace.recorded());
  EXPECT_EQ(trace.subject(), "./subject");  // the caller's word over the log's
  ASSERT_EQ(trace.events_size(), 4);        // step 0 and three whole steps
  EXPECT_EQ(trace.events(1).message(), "env#1");
  EXPECT_EQ(trace.events(1).sender(), "env");
  EXPECT_EQ(trace.events(2).message(), "0#1");
  EXPECT_EQ(trace.events(2).sender(), "0");
  ASSERT_EQ(trace.events(2).choices_size(), 1);
  EXPECT_EQ(trace.events(2).choices(0).range(), 3u);
  EXPECT_EQ(trace.events(2).choices(0).value(), 1u);
  EXPECT_EQ(trace.events(3).step(), 3u);
  EXPECT_EQ(trace.events(3).detail(), "v=1\tw=2\nend");
  EXPECT_EQ(trace.result().status(), proto::RUN_ASSERTION_FAILED);
  EXPECT_EQ(trace.result().detail(), "assertion failed in actor 0 handling 1#1 (Pong) at step 3: v=1\tw=2\nend");
  EXPECT_TRUE(failed(trace));
  // From the log alone (record --from): the program and its arguments are the log's.
  const auto alone = trace_of_free_run(log, {.known = false}, {}, {});
  EXPECT_EQ(alone.subject(), "./program");
  EXPECT_EQ(std::vector<std::string>(alone.args().begin(), alone.args().end()),
            (std::vector<std::string>{"--relay", "100"}));
}

TEST(FreeRunTrace, CompactStepsAreNamedByTheLinesBeforeThem) {
  // Two threads' buffers: the second names its actors and type again (each thread names what it
  // uses); a time of 300 takes two bytes, one of them '\n' (10); a record with an index nothing
  // named is garbage, left out (and the log refused); a line follows a compact record with nothing
  // between; the last record was torn by the log's end.
  const std::string log =
      "P\t./program\n"
      "A\t0\t0\nT\t4\tPing\n" +
      compact({1, 0, 0, 1, 4}) + "A\t7\t0.1\n" + compact({300, 7, 1, 10, 4}) + compact({2, 9, 1, 1, 4}) +
      "A\t0\t0\nA\t7\t0.1\nT\t4\tPing\nT\t5\tPong\\twith tab\n" + compact({299, 0, 8, 2, 5}) +
      "S\t301\t7\t0#3\tPing\tok\t2/1\t\n" + compact({302, 0, 8, 3, 5}).substr(0, 3);
  const auto trace = traced(log);
  ASSERT_EQ(trace.events_size(), 5);
  EXPECT_EQ(trace.events(1).actor(), "0");
  EXPECT_EQ(trace.events(1).message(), "env#1");
  EXPECT_EQ(trace.events(1).sender(), "env");
  EXPECT_EQ(trace.events(1).type(), "Ping");
  EXPECT_EQ(trace.events(2).actor(), "0");
  EXPECT_EQ(trace.events(2).message(), "0.1#2");
  EXPECT_EQ(trace.events(2).type(), "Pong\twith tab");
  EXPECT_EQ(trace.events(3).actor(), "0.1");
  EXPECT_EQ(trace.events(3).message(), "0#10");
  EXPECT_EQ(trace.events(3).sender(), "0");
  EXPECT_EQ(trace.events(4).message(), "0#3");
  ASSERT_EQ(trace.events(4).choices_size(), 1);
  EXPECT_EQ(trace.result().status(), proto::RUN_COMPLETED);
  EXPECT_EQ(trace.result().steps(), 4u);
  // The step it could not name is not dropped quietly: `record` refuses the log, naming why.
  EXPECT_EQ(unreplayable_constructs(log),
            std::vector<std::string>{"a damaged log (a step whose actor or type no line before it names)"});
  EXPECT_TRUE(unreplayable_constructs("P\t./program\nA\t0\t0\nT\t4\tPing\n" + compact({1, 0, 0, 1, 4})).empty());
}

// A damaged log's number past 64 bits names nothing: its line is skipped, its step left unnamed
// (and refused as damage), never an exception out of `record`.
TEST(FreeRunTrace, ANumberPastSixtyFourBitsIsNoNumber) {
  const std::string log = "V\t2\nP\t./program\nA\t99999999999999999999999\t0\nT\t4\tPing\n" + compact({1, 0, 0, 1, 4}) +
                          "S\t99999999999999999999999\t0\tenv#2\tPing\tok\t\t\n";
  EXPECT_EQ(unreplayable_constructs(log),
            std::vector<std::string>{"a damaged log (a step whose actor or type no line before it names)"});
  const auto trace = traced(log, {});
  EXPECT_EQ(trace.events_size(), 1);  // step 0 only: neither step could be read
}

TEST(FreeRunTrace, TheStepAFatalSignalCameInIsWhereTheProcessDied) {
  // Another thread was in step 1 (it never ended): a step of the schedule all the same.
  const std::string log = "I\t1\t0\tenv#1\tStart\nX\t2\t0\t1#1\tQuery\n";
  const auto trace = traced(log, {.signal = 11});
  EXPECT_EQ(trace.result().status(), proto::RUN_CRASH);
  EXPECT_EQ(trace.result().signal(), 11);
  EXPECT_EQ(trace.result().detail(), "crashed with SIGSEGV in actor 0 handling 1#1 (Query) at step 2");
  const auto alone = trace_of_free_run(log, {.known = false}, "./subject", {});
  EXPECT_EQ(alone.result().detail(), "died in actor 0 handling 1#1 (Query) at step 2");
}

TEST(FreeRunTrace, ADeadlockANonZeroExitAndACleanRun) {
  const std::string steps = "S\t1\t0\tenv#1\tStart\tok\t\t\n";
  const auto deadlock = traced(steps + "D\tactor 0 waits for the reply to 0#1\n", {.exit_code = 1});
  EXPECT_EQ(deadlock.result().status(), proto::RUN_DEADLOCK);
  EXPECT_EQ(deadlock.result().detail(), "deadlock: actor 0 waits for the reply to 0#1");
  const auto exited = traced(steps, {.exit_code = 3});
  EXPECT_EQ(exited.result().status(), proto::RUN_EXIT_WITHOUT_RESULT);
  EXPECT_EQ(exited.result().exit_code(), 3);
  const auto clean = traced(steps);
  EXPECT_EQ(clean.result().status(), proto::RUN_COMPLETED);
  EXPECT_EQ(clean.result().steps(), 1u);
  EXPECT_FALSE(failed(clean));
}

}  // namespace
}  // namespace exocheck::cli
