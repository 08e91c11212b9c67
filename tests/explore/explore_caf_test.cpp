// CAF programs (subjects/caf/, no exocheck header) through `exocheck explore`, which attaches the
// CAF adapter by itself: the same figures as the native subjects, bugs found, saved and replayed.

#include <map>
#include <string>

#include "exocheck/wire/trace_file.hpp"
#include "explore_fixture.hpp"

namespace exocheck::explore_test {
namespace {

class ExploreCaf : public ExploreTest {
 protected:
  // The figures below are the native subjects' and the papers', of the unordered model; CAF's own
  // order, the default for a CAF program, has tests of its own (CafDelivery).
  ExploreCaf() { delivery_ = {"--delivery", "unordered"}; }

  /// One worker, depth-first: the papers' figures.
  Figures explore_one_worker(std::vector<std::string> options, const std::string& subject,
                             const std::vector<std::string>& args = {}) const {
    options.insert(options.begin(), {"--workers", "1"});
    return figures(options, subject, args);
  }
  /// `caf_faults option` is refused (exit 2, never a bug), naming what it does in `named`.
  void expect_refused(const std::string& option, const std::string& named) const {
    const auto run = exocheck({"explore", "--workers", "1", "--out", (dir() / "refused").string(), "--",
                               cli_test::subject_path("caf_faults").string(), option});
    EXPECT_EQ(run.exit_code, 2) << option << ": " << run.out << run.err;
    EXPECT_NE(run.err.find(named), std::string::npos) << option << ": " << run.err;
  }
};

TEST_F(ExploreCaf, RegistryHasTheNativeRegistrysFiguresUnderEveryReduction) {
  if (!built("caf-registry")) GTEST_SKIP() << "caf-registry not built (no libcaf-dev)";
  struct Row {
    const char* reduction;
    std::uint64_t paths;
  };
  // TransDPOR paper, Fig. 1: 30 interleavings, DPOR 24 paths, TransDPOR 10; 6 classes.
  for (const Row row : {Row{"exhaustive", 30}, Row{"dpor", 24}, Row{"transdpor", 10}}) {
    SCOPED_TRACE(row.reduction);
    const auto result = explore_one_worker({"--reduction", row.reduction, "--no-sleep-sets"}, "caf-registry");
    EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.paths, row.paths);
    EXPECT_EQ(result.classes, 6u);
    EXPECT_EQ(result.bugs, 0u);
  }
}

// caf-supervisor (subjects/caf/supervisor): a crash of the worker ends the CAF actor itself; its
// monitor's down message and CAF's request_receiver_down answer to a task on its way to it follow in
// the crash's step. Counting the failed task as done loses it: found, shown, replayed and shrunk.
TEST_F(ExploreCaf, ACrashedWorkersLostTaskIsFoundShownReplayedAndShrunk) {
  if (!built("caf-supervisor")) GTEST_SKIP() << "caf-supervisor not built (no libcaf-dev)";
  const std::vector<std::string> crash{"--workers", "1", "--crash", "1", "--crash-types", "worker"};
  const auto no_fault = explore_one_worker({}, "caf-supervisor");
  EXPECT_EQ(no_fault.exit_code, 0) << no_fault.summary.dump(2);
  EXPECT_EQ(no_fault.classes, 1u);
  const auto faulty = figures(crash, "caf-supervisor");
  EXPECT_EQ(faulty.exit_code, 1) << faulty.summary.dump(2);
  expect_bug_replays(faulty, "RUN_ASSERTION_FAILED", {"results.size()"});
  const auto shown = exocheck({"trace", "show", "out/bug-1.trace"});
  EXPECT_NE(shown.out.find("[crashed]"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("crashed by exocheck (--crash)"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("request_receiver_down"), std::string::npos) << shown.out;
  const auto shrunk = exocheck({"shrink", "-o", "s.trace", "out/bug-1.trace"});
  EXPECT_EQ(shrunk.exit_code, 1) << shrunk.out << shrunk.err;
  EXPECT_NE(shrunk.out.find("fails the same way"), std::string::npos) << shrunk.out;
}

// --fixed keeps a failed task pending for the next worker: no bug, the same classes under every
// reduction, with two tasks and with three (where the second worker may crash too).
TEST_F(ExploreCaf, ASupervisorThatRedoesFailedTasksHasNoBugUnderEveryReduction) {
  if (!built("caf-supervisor")) GTEST_SKIP() << "caf-supervisor not built (no libcaf-dev)";
  for (const std::string reduction : {"exhaustive", "dpor", "transdpor", "optimal"}) {
    for (const auto& [tasks, classes] : {std::pair{"2", 6u}, std::pair{"3", 68u}}) {
      SCOPED_TRACE(reduction + " tasks " + tasks);
      const auto fixed = explore_one_worker({"--reduction", reduction, "--crash", "1", "--crash-types", "worker"},
                                            "caf-supervisor", {"--fixed", std::string("--tasks=") + tasks});
      EXPECT_EQ(fixed.exit_code, 0) << fixed.summary.dump(2);
      EXPECT_TRUE(fixed.complete);
      EXPECT_EQ(fixed.classes, classes);
    }
  }
}

// A CAF message lost in flight leaves a gap in its channel: the dispatcher's `finish` after a lost
// result is still delivered (the collector's assert fails, not a deadlock).
TEST_F(ExploreCaf, ALostCafMessageLetsTheNextOnItsChannelThrough) {
  if (!built("caf-supervisor")) GTEST_SKIP() << "caf-supervisor not built (no libcaf-dev)";
  const auto lossy =
      explore_one_worker({"--keep-going", "--lose", "1", "--lossy-types", "result"}, "caf-supervisor", {"--fixed"});
  EXPECT_EQ(lossy.exit_code, 1) << lossy.summary.dump(2);
  EXPECT_TRUE(lossy.complete);
  // Two classes more than before the runs an assert() cuts off were explored on (a failing run
  // with a result on its way): what exhaustive exploration without sleep sets counts.
  EXPECT_EQ(lossy.classes, 5u);
  EXPECT_EQ(lossy.bugs, 1u);
  expect_bug_replays(lossy, "RUN_ASSERTION_FAILED", {"results.size()"});
}

// The adapter does not copy CAF's messages: duplicates are refused, never explored without them.
TEST_F(ExploreCaf, DuplicatesAreRefusedForACafProgram) {
  if (!built("caf-registry")) GTEST_SKIP() << "caf-registry not built (no libcaf-dev)";
  const auto run = exocheck({"explore", "--workers", "1", "--out", (dir() / "refused").string(), "--duplicate", "1",
                             "--", cli_test::subject_path("caf-registry").string()});
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_NE(run.err.find("messages of a CAF program delivered twice (--duplicate)"), std::string::npos) << run.err;
}

TEST_F(ExploreCaf, RegistryWithMoreWorkersHasTheNativeFigures) {
  if (!built("caf-registry")) GTEST_SKIP() << "caf-registry not built (no libcaf-dev)";
  for (const char* workers : {"3", "4"}) {
    SCOPED_TRACE(workers);
    const auto caf = explore_one_worker({}, "caf-registry", {std::string("--workers=") + workers});
    const auto native = explore_one_worker({}, "registry", {"--workers", workers});
    EXPECT_EQ(caf.exit_code, 0) << caf.summary.dump(2);
    EXPECT_EQ(caf.paths, native.paths);
    EXPECT_EQ(caf.transitions, native.transitions);
    EXPECT_EQ(caf.classes, native.classes);
  }
}

// Two clients read the balance and write it back 100 higher (request(...).then): when both reads
// come before both writes, one deposit is lost and the auditor's assert() fails.
TEST_F(ExploreCaf, BankLosesAnUpdateOnSomeScheduleAndTheTraceReplays) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  for (const char* reduction : {"dpor", "transdpor"}) {
    SCOPED_TRACE(reduction);
    const auto result = figures({"--workers", "2", "--reduction", reduction}, "caf-bank");
    expect_bug_replays(
        result, "RUN_ASSERTION_FAILED",
        {"assertion failed in actor 1 handling ", "bank/main.cpp:", "Assertion `balance == expected' failed."});
  }
}

// A CAF actor is named in the trace by the name its state gives it, else its state's type, else its
// class (a function-based actor without state leaves no more).
TEST_F(ExploreCaf, TheTraceNamesEachActorsType) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  const auto result = figures({"--workers", "1"}, "caf-bank");
  ASSERT_EQ(result.exit_code, 1) << result.summary.dump(2);
  const auto trace = wire::read_trace_file(dir() / result.summary.at("bugs").at(0).at("trace").get<std::string>());
  std::map<std::string, std::string> types;
  for (const auto& event : trace.events()) {
    for (const auto& type : event.actor_types()) types[type.actor()] = type.type();
  }
  EXPECT_EQ(types, (std::map<std::string, std::string>{{"0", "account_state"},
                                                       {"1", "auditor_state"},
                                                       {"2", "caf::event_based_actor"},
                                                       {"3", "caf::event_based_actor"}}));
}

TEST_F(ExploreCaf, BankLosesAnUpdateIn8Of12ClassesAnd504Of540WithThreeClients) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  struct Row {
    const char* clients;
    std::uint64_t classes, bugs;
  };
  for (const Row row : {Row{"--clients=2", 12, 8}, Row{"--clients=3", 540, 504}}) {
    for (const char* reduction : {"exhaustive", "transdpor"}) {
      if (std::string(row.clients) == "--clients=3" && std::string(reduction) == "exhaustive") continue;
      SCOPED_TRACE(std::string(row.clients) + " " + reduction);
      const auto result =
          figures({"--workers", "2", "--reduction", reduction, "--keep-going"}, "caf-bank", {row.clients});
      EXPECT_EQ(result.exit_code, 1);
      EXPECT_TRUE(result.complete);
      EXPECT_EQ(result.classes, row.classes);
      EXPECT_EQ(result.failing_classes, row.bugs);
      EXPECT_EQ(result.bugs, 1u);
    }
  }
}

TEST_F(ExploreCaf, FixedBankNeverLosesAnUpdate) {
  expect_correct("caf-bank", {"--fixed"}, 4);
  expect_correct("caf-bank", {"--fixed", "--clients=3"}, 36);
}

// An account spawned with caf::detached (by hand on a private thread of its own) runs on the
// schedule like any other under control (it was refused): caf-bank's classes and bug.
TEST_F(ExploreCaf, ADetachedActorIsExploredAsAnyOther) {
  if (!built("caf-bank")) GTEST_SKIP() << "caf-bank not built (no libcaf-dev)";
  const auto result =
      figures({"--workers", "2", "--reduction", "transdpor", "--keep-going"}, "caf-bank", {"--detached"});
  EXPECT_EQ(result.exit_code, 1) << result.summary.dump(2);
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.classes, 12u);
  EXPECT_EQ(result.failing_classes, 8u);
  expect_bug_replays(figures({"--workers", "1"}, "caf-bank", {"--detached"}), "RUN_ASSERTION_FAILED",
                     {"Assertion `balance == expected' failed."});
  expect_correct("caf-bank", {"--fixed", "--detached"}, 4);
}

// Each philosopher holds its left chopstick and waits for the right one: requests no chopstick
// will ever answer (make_response_promise, delivered on a put that never comes).
TEST_F(ExploreCaf, PhilosophersDeadlockAndTheTraceReplays) {
  if (!built("caf-philosophers")) GTEST_SKIP() << "caf-philosophers not built (no libcaf-dev)";
  for (const char* reduction : {"dpor", "transdpor"}) {
    SCOPED_TRACE(reduction);
    const auto result = figures({"--workers", "2", "--reduction", reduction}, "caf-philosophers");
    expect_bug_replays(result, "RUN_DEADLOCK",
                       {"actor 2 waits for the reply to 2#2", "actor 3 waits for the reply to 3#2"});
  }
}

TEST_F(ExploreCaf, PhilosophersDeadlockInOneClassOf9AndOf49) {
  if (!built("caf-philosophers")) GTEST_SKIP() << "caf-philosophers not built (no libcaf-dev)";
  struct Row {
    const char* philosophers;
    std::uint64_t classes;
  };
  for (const Row row : {Row{"--philosophers=2", 9}, Row{"--philosophers=3", 49}}) {
    SCOPED_TRACE(row.philosophers);
    const auto result = figures({"--workers", "2", "--keep-going"}, "caf-philosophers", {row.philosophers});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.classes, row.classes);
    EXPECT_EQ(result.bugs, 1u);
  }
}

TEST_F(ExploreCaf, FixedPhilosophersNeverDeadlock) {
  expect_correct("caf-philosophers", {"--fixed"}, 8);
  expect_correct("caf-philosophers", {"--fixed", "--philosophers=3"}, 48);
}

// Two typed workers square items in parallel: their results can reach the sink out of order.
TEST_F(ExploreCaf, PipelineResultsArriveOutOfOrderAndTheTraceReplays) {
  if (!built("caf-pipeline")) GTEST_SKIP() << "caf-pipeline not built (no libcaf-dev)";
  const auto result = figures({"--workers", "2"}, "caf-pipeline");
  expect_bug_replays(result, "RUN_ASSERTION_FAILED",
                     {"assertion failed in actor 0 handling 2#1 (result)", "Assertion `seq == st.next' failed."});
}

TEST_F(ExploreCaf, FixedPipelineEmitsInOrderOnEverySchedule) {
  // Which of the two workers' results reach the sink first: C(n, n/2) classes.
  expect_correct("caf-pipeline", {"--fixed"}, 2);
  expect_correct("caf-pipeline", {"--fixed", "--items=4"}, 6);
}

// A handler that throws ends its actor with an error (CAF's default exception handler): the step
// fails with the exception's text.
TEST_F(ExploreCaf, AnUncaughtExceptionIsReportedWithItsTextAndReplays) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto result = figures({"--workers", "1"}, "caf_faults", {"--throw"});
  expect_bug_replays(result, "RUN_EXCEPTION",
                     {"uncaught exception in actor 0 handling env#1 (ping) at step 1: actor 0 failed: ",
                      "(uncaught exception: the ledger is corrupt)"});
}

TEST_F(ExploreCaf, AMessageToAnActorThatHasQuitIsADeadLetter) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto result = figures({"--workers", "1"}, "caf_faults", {"--dead-letter"});
  EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.classes, 1u);
  ASSERT_EQ(result.summary.at("warnings").size(), 1u) << result.summary.dump(2);
  EXPECT_EQ(result.summary.at("warnings").at(0).get<std::string>().rfind("dead letter env#2 ", 0), 0u)
      << result.summary.at("warnings").dump();
}

// caf_main waits in a scoped_actor's receive for an actor's answer: the run begins there, and the
// answer's delivery returns into caf_main; with and without a fork server.
TEST_F(ExploreCaf, AScopedActorReceivingInMainIsExplored) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  for (const std::vector<std::string>& mode :
       {std::vector<std::string>{"--workers", "1"}, {"--workers", "1", "--no-fork-server"}}) {
    const auto result = figures(mode, "caf_faults", {"--scoped-receive"});
    EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.classes, 1u);
    EXPECT_EQ(result.bugs, 0u);
  }
}

// caf-scoped: caf_main reads a counter (a scoped_actor's request(...).receive, or a function view)
// while two actors increment it; the read may come first, and caf_main's assert() fails.
TEST_F(ExploreCaf, CafMainsScopedActorAndFunctionViewAreExplored) {
  if (!built("caf-scoped")) GTEST_SKIP() << "caf-scoped not built (no libcaf-dev)";
  struct Row {
    std::vector<std::string> args;
    std::uint64_t classes;
    bool bug;
  };
  // Without --fixed caf_main's assert() ends the process while increments are on their way: the
  // runs it cuts off are explored on (each delivery enabled there goes first once), 10 of the
  // classes pass, as exhaustive exploration's do.
  for (const Row& row : {Row{{}, 36, true}, Row{{"--fixed"}, 4, false}, Row{{"--function-view"}, 30, true},
                         Row{{"--function-view", "--fixed"}, 4, false}}) {
    SCOPED_TRACE(row.args.empty() ? "" : row.args.front());
    const auto result = figures({"--workers", "1", "--keep-going"}, "caf-scoped", row.args);
    EXPECT_EQ(result.exit_code, row.bug ? 1 : 0) << result.summary.dump(2);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.classes, row.classes);
    EXPECT_EQ(result.paths, row.classes);  // optimal, one worker: one execution per class
  }
  expect_bug_replays(figures({"--workers", "1"}, "caf-scoped"), "RUN_ASSERTION_FAILED",
                     {"Assertion `value == 2' failed."});
}

// caf_main awaits its actors itself and goes on: its code after the wait is a step of its own
// (caf_main's actor, on every lane), so that an assert() that fails there is the run's bug, and the
// actors it then spawns and messages are explored as the first ones are.
TEST_F(ExploreCaf, CafMainGoesOnAfterAwaitingItsActors) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto checked = figures({"--workers", "1"}, "caf_faults", {"--await=check"});
  EXPECT_EQ(checked.exit_code, 0) << checked.summary.dump(2);
  EXPECT_TRUE(checked.complete);
  EXPECT_EQ(checked.classes, 1u);
  EXPECT_EQ(checked.transitions, 2u);  // the ping, then caf_main's return from its wait
  const auto failed = figures({"--workers", "1"}, "caf_faults", {"--await=fail"});
  expect_bug_replays(failed, "RUN_ASSERTION_FAILED",
                     {"(await_all_actors_done) at step 2: ", "Assertion `pings == 2' failed."});
  const auto spawned = figures({"--workers", "1"}, "caf_faults", {"--await=spawn"});
  EXPECT_EQ(spawned.exit_code, 0) << spawned.summary.dump(2);
  EXPECT_TRUE(spawned.complete);
  EXPECT_EQ(spawned.transitions, 3u);  // the counter spawned after the wait gets its ping too
}

// An actor held only by actors CAF ends as unreachable ends too (a chain asker -> forwarder ->
// echo, the asker done): caf_main's await returns, as by hand (it was a false deadlock: the
// adapter's own handle kept the forwarder, which kept the echo). An end that would send (a down
// message to caf_main's scoped_actor, which monitors the echo it let go of) is refused.
TEST_F(ExploreCaf, AnAwaitEndsAChainOfActorsNothingRefersTo) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto chain = figures({"--workers", "1"}, "caf_faults", {"--await=chain"});
  EXPECT_EQ(chain.exit_code, 0) << chain.summary.dump(2);
  EXPECT_TRUE(chain.complete);
  EXPECT_EQ(chain.classes, 1u);
  EXPECT_EQ(chain.transitions, 4u);  // the ping to the forwarder, to the echo, its answer, the await
  expect_refused("--await=monitored", "sends as it ends (@down to actor 0");
}

// A blocking receive inside an event-based actor's handler would wait inside a step: refused, not
// misreported (it was a protocol error filed as a bug).
TEST_F(ExploreCaf, AReceiveInsideAHandlerIsRefused) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  expect_refused("--handler-receive", "a blocking receive inside an actor's handler");
}

// Actors spawned with blocking_api are actors of the run: each starts in a step of its own and,
// on its own thread, runs from a delivery until it waits again (caf-blocking: a lost update). One
// that waits for a message nobody sends is a deadlock (by hand the program never ends).
TEST_F(ExploreCaf, BlockingApiActorsAreExplored) {
  if (!built("caf-blocking") || !built("caf_faults")) GTEST_SKIP() << "CAF subjects not built (no libcaf-dev)";
  struct Row {
    std::vector<std::string> args;
    std::uint64_t classes;
    std::uint64_t bugs;
  };
  for (const Row& row : {Row{{}, 12, 8}, Row{{"--fixed"}, 4, 0}, Row{{"--class-based"}, 12, 8},
                         Row{{"--class-based", "--fixed"}, 4, 0}}) {
    SCOPED_TRACE(row.args.empty() ? "" : row.args.front());
    const auto result =
        figures({"--strategy", "systematic", "--workers", "1", "--keep-going"}, "caf-blocking", row.args);
    EXPECT_EQ(result.exit_code, row.bugs > 0 ? 1 : 0) << result.summary.dump(2);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.classes, row.classes);
    EXPECT_EQ(result.paths, row.classes);  // optimal, one worker: one execution per class
    EXPECT_EQ(result.failing_classes, row.bugs);
    EXPECT_EQ(result.bug_paths, row.bugs);
  }
  expect_bug_replays(figures({"--workers", "1"}, "caf-blocking"), "RUN_ASSERTION_FAILED",
                     {"Assertion `value == 2' failed."});
  expect_bug_replays(figures({"--workers", "1"}, "caf_faults", {"--blocking-spawn"}), "RUN_DEADLOCK",
                     {"a message (blocking receive)"});
}

// A blocking receive's after(...) (caf_main's scoped_actor, or an actor on its own thread) is a
// timer of the waiting actor: it fires at any step while the actor waits (three classes each), or
// only when nothing else can happen with --timers quiescent.
TEST_F(ExploreCaf, ABlockingReceivesTimeoutIsATimer) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  struct Row {
    std::string option;
    std::string timers;
    std::uint64_t classes;
  };
  for (const Row& row : {Row{"--receive-timeout", "anytime", 3}, Row{"--receive-timeout", "quiescent", 1},
                         Row{"--thread-timeout", "anytime", 3}, Row{"--thread-timeout", "quiescent", 2}}) {
    SCOPED_TRACE(row.option + " " + row.timers);
    const auto result = figures({"--workers", "1", "--timers", row.timers}, "caf_faults", {row.option});
    EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.classes, row.classes);
  }
}

// caf-scoped --wait-ms=1: caf_main waits for each increment with after(1 ms) and asserts both came
// in time. A timeout that fires first fails the run (an assert(): the process ends); the orders in
// which the increments come in time are found after it too (before the runs an assert() cuts off
// were explored on, none of the 4 passing classes was).
TEST_F(ExploreCaf, AFlakyWaitsTimeoutAndTheOrdersThatPassAreFound) {
  if (!built("caf-scoped")) GTEST_SKIP() << "caf-scoped not built (no libcaf-dev)";
  const auto anytime =
      figures({"--strategy", "systematic", "--workers", "1", "--keep-going"}, "caf-scoped", {"--wait-ms=1"});
  EXPECT_EQ(anytime.exit_code, 1) << anytime.summary.dump(2);
  EXPECT_TRUE(anytime.complete);
  EXPECT_EQ(anytime.classes, 18u);
  EXPECT_EQ(anytime.failing_classes, 14u);  // 4 pass
  EXPECT_EQ(anytime.bugs, 2u);              // the first wait's timeout, or the second's
  const auto quiescent =
      figures({"--workers", "1", "--keep-going", "--timers", "quiescent"}, "caf-scoped", {"--wait-ms=1"});
  EXPECT_EQ(quiescent.exit_code, 0) << quiescent.summary.dump(2);
  EXPECT_EQ(quiescent.classes, 4u);
  expect_bug_replays(figures({"--strategy", "systematic", "--workers", "1"}, "caf-scoped", {"--wait-ms=1"}),
                     "RUN_ASSERTION_FAILED", {"timeout:blocking receive", "Assertion `in_time == 2' failed."});
  // The timeout of caf_main's first wait, by its name ("1#w1": actor 1's first message or timeout).
  const auto run =
      exocheck({"run", "--prefix", "1#w1", "--", cli_test::subject_path("caf-scoped").string(), "--wait-ms=1"});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("Assertion `in_time == 2' failed."), std::string::npos) << run.out;
}

// A deposit retried on its request timeout (caf-retry): with timers that may fire at any step the
// timeout races the reply, and a late reply after the retry applies the deposit twice. Timers
// that fire only when nothing else can (quiescent) never beat the reply.
TEST_F(ExploreCaf, ARequestTimeoutRacesItsReplyAndTheRetryDoublesTheDeposit) {
  if (!built("caf-retry")) GTEST_SKIP() << "caf-retry not built (no libcaf-dev)";
  const auto buggy = figures({"--workers", "1", "--keep-going"}, "caf-retry");
  EXPECT_EQ(buggy.exit_code, 1) << buggy.summary.dump(2);
  EXPECT_TRUE(buggy.complete);
  EXPECT_EQ(buggy.classes, 3u);
  EXPECT_EQ(buggy.bugs, 1u);
  expect_bug_replays(figures({"--workers", "1"}, "caf-retry"), "RUN_ASSERTION_FAILED",
                     {"Assertion `balance == 10' failed."});
  const auto fixed = figures({"--workers", "1"}, "caf-retry", {"--fixed"});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.summary.dump(2);
  EXPECT_TRUE(fixed.complete);
  EXPECT_EQ(fixed.classes, 3u);
  const auto quiescent = figures({"--workers", "1", "--timers", "quiescent"}, "caf-retry");
  EXPECT_EQ(quiescent.exit_code, 0) << quiescent.summary.dump(2);
  EXPECT_EQ(quiescent.classes, 1u);
}

// A CAF program's timers are named apart from its messages ("1#t1": actor 1's first timer), so
// that a message's name does not depend on the timers armed before it; such a name is a prefix's.
TEST_F(ExploreCaf, ATimersNameInAPrefixReplaysTheBug) {
  if (!built("caf-retry")) GTEST_SKIP() << "caf-retry not built (no libcaf-dev)";
  const auto run = exocheck(
      {"run", "--prefix", "env#t1,1#1,1#t1,0#1,1#2,0#2,1#3,0#3", "--", cli_test::subject_path("caf-retry").string()});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("Assertion `balance == 10' failed."), std::string::npos) << run.out;
}

// An actor stopped with send_exit(user_shutdown), as CAF's examples stop their servers, ends as
// the program meant: no bug (it was reported as an uncaught exception).
TEST_F(ExploreCaf, AnActorStoppedWithUserShutdownIsNoBug) {
  if (!built("caf_faults")) GTEST_SKIP() << "caf_faults not built (no libcaf-dev)";
  const auto result = figures({"--workers", "1"}, "caf_faults", {"--user-shutdown"});
  EXPECT_EQ(result.exit_code, 0) << result.summary.dump(2);
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.bugs, 0u);
  EXPECT_EQ(result.classes, 1u);
}

}  // namespace
}  // namespace exocheck::explore_test
