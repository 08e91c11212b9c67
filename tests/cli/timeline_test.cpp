// The timeline: exact text for hand-built traces, clocks, statuses and every result detail.

#include "exocheck/agent/timeline.hpp"

#include <gtest/gtest.h>

#include "sample_traces.hpp"

namespace exocheck::cli_test {
namespace {

using agent::format_timeline;

/// The lines of the timeline from the one starting with "Result:" on.
std::string result_section(const proto::TraceFile& trace) {
  const auto text = format_timeline(trace);
  return text.substr(text.find("\nResult: ") + 1);
}

TEST(Timeline, SampleTraceExactly) {
  EXPECT_EQ(format_timeline(sample_trace()),
            "Subject: ./registry --workers 1\n"
            "Options: heuristic fifo, step limit 100, prefix (none)\n"
            "Recorded by: exocheck 0.1.0, protocol 1, trace format 1\n"
            "\n"
            "step  actor  message  sender  summary             clock         effects\n"
            "   0  main: created 0; sent env#1 Start to 0\n"
            "   1  0      env#1    env     Start{}             {0:1}         -> 0#1 Register to 0.1; created 0.1\n"
            "   2  0.1    0#1      0       Register{worker=1}  {0:1, 0.1:1}  -> 0.1#1 Ack to 0\n"
            "   3  0      0.1#1    0.1     Ack{}               {0:2, 0.1:1}  [destroyed]\n"
            "\n"
            "Result: completed (RUN_COMPLETED) after 3 steps\n"
            "  final state:  0.1: registered\n");
}

TEST(Timeline, HeaderShowsPrefixRankingAndNoLimit) {
  auto trace = sample_trace();
  trace.add_prefix("env#1");
  trace.add_prefix("0#1");
  trace.set_step_limit(0);
  trace.add_ranking("0.1");
  trace.add_ranking("0");
  const auto text = format_timeline(trace);
  EXPECT_EQ(text.substr(0, text.find("Recorded by")),
            "Subject: ./registry --workers 1\n"
            "Options: heuristic fifo, step limit none, prefix env#1,0#1\n"
            "Ranking: 0.1, 0\n");
}

TEST(Timeline, StepMarkersForOutcomesAndDeadLetters) {
  auto trace = sample_trace();
  auto& last = *trace.mutable_events(3);
  last.set_destroyed(false);
  last.add_dead_letters("0#4");
  last.set_outcome(proto::STEP_ASSERTION_FAILED);
  last.set_detail("v1 == v2");
  const auto text = format_timeline(trace);
  EXPECT_NE(text.find("   3  0      0.1#1    0.1     Ack{}               {0:2, 0.1:1}  "
                      "[dead letters: 0#4]; !! assertion failed: v1 == v2\n"),
            std::string::npos)
      << text;
  last.set_outcome(proto::STEP_EXCEPTION);
  last.set_detail("boom");
  EXPECT_NE(format_timeline(trace).find("[dead letters: 0#4]; !! exception: boom\n"), std::string::npos);
}

TEST(Timeline, DeadlockListsBlockedActorsAndPendingMessages) {
  auto trace = sample_trace();
  auto& result = *trace.mutable_result();
  result.set_status(proto::RUN_DEADLOCK);
  result.set_detail("2 messages pending, none enabled");
  auto* blocked = result.add_blocked();
  blocked->set_actor("1");
  blocked->set_waiting_for("1#2");
  result.add_blocked()->set_actor("0.1");
  auto* pending = result.add_pending();
  pending->set_id("1#3");
  pending->set_receiver("0");
  pending->set_type("Get");
  pending->set_receiver_destroyed(true);
  result.add_dead_letters("1#3");
  EXPECT_EQ(result_section(trace),
            "Result: deadlock (RUN_DEADLOCK) after 3 steps\n"
            "  detail:       2 messages pending, none enabled\n"
            "  blocked:      1 (waiting for the reply to 1#2), 0.1 (never ends, and main awaits it)\n"
            "  pending:      1#3 Get to 0 (receiver destroyed)\n"
            "  warning:      dead letters: 1#3\n"
            "  final state:  0.1: registered\n");
}

TEST(Timeline, DivergenceNamesExpectedAndEnabled) {
  auto trace = sample_trace();
  auto& result = *trace.mutable_result();
  result.set_status(proto::RUN_DIVERGENCE);
  result.set_steps(1);
  result.set_divergence_index(1);
  result.set_divergence_expected("0.1#7");
  result.add_divergence_enabled("0#1");
  result.add_divergence_enabled("env#2");
  result.clear_final_state();
  EXPECT_EQ(result_section(trace),
            "Result: replay divergence (RUN_DIVERGENCE) after 1 step\n"
            "  divergence:   prefix position 1 named 0.1#7, enabled instead: 0#1, env#2\n");
}

TEST(Timeline, CrashShowsSignalAndStderrLines) {
  auto trace = sample_trace();
  auto& result = *trace.mutable_result();
  result.set_status(proto::RUN_CRASH);
  result.set_signal(11);
  result.set_stderr_tail("first line\nsecond line\n");
  result.clear_final_state();
  EXPECT_EQ(result_section(trace),
            "Result: crash (RUN_CRASH) after 3 steps\n"
            "  signal:       11\n"
            "  stderr:       first line\n"
            "                second line\n");
}

TEST(Timeline, LongSummariesDoNotWidenTheColumn) {
  auto trace = sample_trace();
  trace.mutable_events(2)->set_summary(std::string(60, 's'));
  const auto text = format_timeline(trace);
  EXPECT_NE(text.find("   1  0      env#1    env     Start{}                                   {0:1}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(std::string(60, 's') + "  {0:1, 0.1:1}"), std::string::npos) << text;
}

TEST(Timeline, ClocksAndStatusWords) {
  EXPECT_EQ(agent::format_clock({}), "{}");
  EXPECT_EQ(agent::format_clock(sample_trace().events(3).clock()), "{0:2, 0.1:1}");
  EXPECT_EQ(agent::status_in_words(proto::RUN_ASSERTION_FAILED), "assertion failed");
  EXPECT_EQ(agent::status_in_words(proto::RUN_STEP_LIMIT), "step limit exceeded");
  EXPECT_EQ(agent::status_in_words(proto::RUN_EXIT_WITHOUT_RESULT), "exited without a result");
}

}  // namespace
}  // namespace exocheck::cli_test
