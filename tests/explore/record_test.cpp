// `exocheck record` (DESIGN.md, "Recorded runs"): free runs of real subjects on their thread pool,
// recorded until one fails; the trace written at the failure replays to the same failure under
// control. A program that reads the clock parts ways with its recording: diverged, exit 2.

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "record_fixture.hpp"

namespace exocheck::explore_test {
namespace {

// clientserver's Set through a relay that waits up to 100 us: some free runs read 0 then 1.
TEST_F(Record, AFreeRunsAtomicityViolationIsRecordedAndReplays) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto trace = record_until_failure("clientserver", {"--relay", "100"}, 2000);
  ASSERT_TRUE(trace) << "no free run failed in 2000";
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
  EXPECT_NE(replayed.out.find("atomicity violation: v1=0 but v2=1"), std::string::npos) << replayed.out;
  // The pictures need clocks a recording lacks: the recording is replayed under control, and its
  // replay drawn, as `replay -o` saves it.
  const auto drawn = exocheck({"trace", "export", "--format", "shiviz", *trace});
  EXPECT_EQ(drawn.exit_code, 0) << drawn.out << drawn.err;
  EXPECT_NE(drawn.err.find("drawn from its replay under control"), std::string::npos) << drawn.err;
  EXPECT_NE(drawn.out.find("receives 0#2"), std::string::npos) << drawn.out;
  EXPECT_EQ(drawn.out.find(" {} "), std::string::npos) << drawn.out;  // every step has its clock
  EXPECT_EQ(exocheck({"replay", *trace, "-o", "full.trace"}).exit_code, 1);
  const auto full = exocheck({"trace", "export", "--format", "shiviz", "full.trace"});
  EXPECT_EQ(full.exit_code, 0) << full.err;
  EXPECT_EQ(full.out, drawn.out);
  EXPECT_EQ(exocheck({"trace", "view", *trace, "-o", "recorded.html"}).exit_code, 0);
}

// explore --from: the classes below a recorded failure's first deliveries. Keeping none is the
// whole program (clientserver --relay: 4 classes); keeping all before the failing delivery leaves
// that delivery's own class; more than the trace has is refused.
TEST_F(Record, ExploreFromARecordedFailureExploresTheClassesThatShareItsStart) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto trace = record_until_failure("clientserver", {"--relay", "100"}, 2000);
  ASSERT_TRUE(trace) << "no free run failed in 2000";
  const auto whole = figures({"--workers", "1", "--keep-going", "--from", *trace, "--keep-steps", "0"}, "clientserver",
                             {"--relay", "100"});
  EXPECT_EQ(whole.exit_code, 1) << whole.summary.dump(2);
  EXPECT_EQ(whole.classes, 4u);
  EXPECT_EQ(whole.bugs, 1u);
  const auto around = exocheck({"explore", "--workers", "1", "--keep-going", "--out", "around", "--from", *trace});
  EXPECT_EQ(around.exit_code, 1) << around.out << around.err;
  EXPECT_NE(around.out.find("From: " + *trace +
                            ": the classes that share its first 5 deliveries (its failure is "
                            "delivery 6)"),
            std::string::npos)
      << around.out;
  EXPECT_NE(around.out.find("Summary: complete, 1 paths"), std::string::npos) << around.out;
  EXPECT_NE(around.out.find("Nearest passing run: none"), std::string::npos) << around.out;
  // On the default too, the classes below the prefix are explored systematically, with no sampled
  // run through the whole program beside them; a sampled strategy is refused.
  EXPECT_EQ(around.out.find("sampled runs beside"), std::string::npos) << around.out;
  const auto sampled = exocheck({"explore", "--strategy", "pct", "--out", "sampled", "--from", *trace});
  EXPECT_EQ(sampled.exit_code, 2) << sampled.out << sampled.err;
  EXPECT_NE(sampled.err.find("--from explores the classes below a trace's prefix"), std::string::npos) << sampled.err;
  // Keeping none, 3 of the 4 classes pass: the one that shares most of the failure's deliveries is
  // saved, and `trace diff` shows where it parts from the recording.
  const auto near = exocheck(
      {"explore", "--workers", "1", "--keep-going", "--out", "near", "--from", *trace, "--keep-steps", "0", "--json"});
  EXPECT_EQ(near.exit_code, 1) << near.out << near.err;
  const auto nearest = nlohmann::json::parse(near.out).at("nearest_passing");
  ASSERT_TRUE(nearest.is_object()) << near.out;
  EXPECT_EQ(nearest.at("trace").get<std::string>(), "near/nearest-passing.trace");
  EXPECT_LT(nearest.at("shared_deliveries").get<int>(), 6);  // never the failure's own delivery
  const auto diff = exocheck({"trace", "diff", *trace, "near/nearest-passing.trace"});
  EXPECT_EQ(diff.exit_code, 1) << diff.out << diff.err;
  EXPECT_NE(diff.out.find("B: completed after"), std::string::npos) << diff.out;
  EXPECT_NE(diff.out.find("They part at step " + std::to_string(nearest.at("shared_deliveries").get<int>() + 1)),
            std::string::npos)
      << diff.out;
  const auto too_many = exocheck({"explore", "--out", "many", "--from", *trace, "--keep-steps", "99"});
  EXPECT_EQ(too_many.exit_code, 2) << too_many.out << too_many.err;
  EXPECT_NE(too_many.err.find("--keep-steps 99 is more than the 6 deliveries"), std::string::npos) << too_many.err;
}

// session-cache: a Query before Open dereferences a null pointer; the free run dies with SIGSEGV
// and the lines recorded up to the crash make the trace, which replays to the crash.
TEST_F(Record, AFreeRunsCrashLeavesATraceThatReplaysToTheCrash) {
  if (!built("session-cache")) GTEST_SKIP() << "session-cache not built";
  const auto trace = record_until_failure("session-cache", {}, 2000);
  ASSERT_TRUE(trace) << "no free run crashed in 2000";
  const auto shown = exocheck({"trace", "show", *trace});
  EXPECT_NE(shown.out.find("crashed with SIGSEGV in actor 0 handling 2#1 (Query)"), std::string::npos) << shown.out;
  const auto replayed = exocheck({"replay", *trace});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_CRASH"), std::string::npos) << replayed.out;
}

// A log of the format before versions (it begins with its command line) is refused, both versions
// named: its program's hook is another exocheck's.
TEST_F(Record, ALogOfAnotherFormatVersionIsRefused) {
  const auto log = dir().path() / "old.log";
  std::ofstream(log) << "P\t./program\nS\t1\t0\tenv#1\tPing\tok\t\t\n";
  const auto made = exocheck({"record", "--out", "from", "--from", log.string()});
  EXPECT_EQ(made.exit_code, 2) << made.out << made.err;
  EXPECT_NE(made.err.find("record: the log of '" + log.string() +
                          "' is in free-run log format version 1, this exocheck reads version 2: record it with "
                          "the program built against this exocheck's hook (exocheck::hook); no trace was saved"),
            std::string::npos)
      << made.err;
}

// A program a harness starts records itself under EXOCHECK_RECORD ("%p": its pid); `record --from`
// makes the trace of a failed run's log, naming the program from the log, and it replays.
TEST_F(Record, AProgramAHarnessStartsRecordsItselfAndRecordFromMakesItsTrace) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto logs = dir().path() / "logs";
  std::optional<std::filesystem::path> log;
  for (int i = 0; i < 2000 && !log; ++i) {
    std::filesystem::remove_all(logs);
    std::filesystem::create_directories(logs);
    const auto run = cli_test::run_program("env",
                                           {"EXOCHECK_RECORD=" + (logs / "run-%p.log").string(),
                                            cli_test::subject_path("clientserver").string(), "--relay", "100"},
                                           dir().path());
    if (run.exit_code == 0) continue;
    ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
    for (const auto& entry : std::filesystem::directory_iterator(logs)) log = entry.path();
  }
  ASSERT_TRUE(log) << "no free run failed in 2000";
  EXPECT_NE(log->filename().string(), "run-%p.log");
  const auto made = exocheck({"record", "--json", "--out", "from", "--from", log->string()});
  ASSERT_EQ(made.exit_code, 1) << made.out << made.err;
  const auto report = nlohmann::json::parse(made.out);
  EXPECT_EQ(report.at("status"), "RUN_ASSERTION_FAILED");
  const auto replayed = exocheck({"replay", report.at("trace").get<std::string>()});
  EXPECT_EQ(replayed.exit_code, 1) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Subject: " + cli_test::subject_path("clientserver").string() + " --relay 100"),
            std::string::npos)
      << replayed.out;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_ASSERTION_FAILED"), std::string::npos) << replayed.out;
}

// A program without the hook (not linked, not CAF) is refused before it runs, never a clean run.
TEST_F(Record, AProgramThatRecordsNothingIsRefused) {
  if (!built("fault_not_linked")) GTEST_SKIP() << "fault_not_linked not built";
  const auto run =
      exocheck({"record", "--always", "--out", "none", "--", cli_test::subject_path("fault_not_linked").string()});
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("is not linked with the exocheck hook and uses no actor framework"), std::string::npos)
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir().path() / "none" / "recorded-1.trace"));
}

// A run that completes writes no trace, but with --always; that trace replays to a clean run.
TEST_F(Record, ACompletedRunIsSavedOnlyWithAlways) {
  if (!built("clientserver")) GTEST_SKIP() << "clientserver not built";
  const auto subject = cli_test::subject_path("clientserver").string();
  const auto plain = exocheck({"record", "--json", "--out", "clean", "--", subject, "--fixed"});
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  EXPECT_TRUE(nlohmann::json::parse(plain.out).at("trace").is_null());
  const auto always = exocheck({"record", "--always", "--json", "--out", "clean", "--", subject, "--fixed"});
  ASSERT_EQ(always.exit_code, 0) << always.out << always.err;
  const auto report = nlohmann::json::parse(always.out);
  EXPECT_EQ(report.at("status"), "RUN_COMPLETED");
  EXPECT_EQ(report.at("steps"), 7);  // Set, Get, Get and their 3 replies, Kill: the fixed client's run
  const auto replayed = exocheck({"replay", report.at("trace").get<std::string>()});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: reproduced RUN_COMPLETED"), std::string::npos) << replayed.out;
}

// Recorded before the clock passes --flip-at and replayed after: the Ping goes elsewhere, and the
// replay says where it parted from the recording, exit 2, never "reproduced".
TEST_F(Record, ARecordingTheProgramDoesNotFollowIsReportedAsDiverged) {
  if (!built("fault_clock")) GTEST_SKIP() << "fault_clock not built";
  const auto flip_at =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count() + 2;
  const auto recorded =
      exocheck({"record", "--always", "--json", "--out", "clock", "--", cli_test::subject_path("fault_clock").string(),
                "--flip-at", std::to_string(flip_at)});
  ASSERT_EQ(recorded.exit_code, 0) << recorded.out << recorded.err;
  const auto trace = nlohmann::json::parse(recorded.out).at("trace").get<std::string>();
  std::this_thread::sleep_until(std::chrono::system_clock::time_point(std::chrono::seconds(flip_at + 1)));
  const auto replayed = exocheck({"replay", trace});
  EXPECT_EQ(replayed.exit_code, 2) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("Replay: diverged from the recording: step 2: the recording delivered 2#1 (Ping "
                              "from 2) to actor 0"),
            std::string::npos)
      << replayed.out;
  EXPECT_EQ(replayed.out.find("Replay: reproduced"), std::string::npos) << replayed.out;
  // Nor is a picture of it drawn from a replay that parted from it.
  const auto drawn = exocheck({"trace", "view", trace, "-o", "clock.html"});
  EXPECT_EQ(drawn.exit_code, 2) << drawn.out << drawn.err;
  EXPECT_NE(drawn.err.find("its replay, drawn instead, diverged from the recording: step 2"), std::string::npos)
      << drawn.err;
}

}  // namespace
}  // namespace exocheck::explore_test
