// The fork server through the runner, on real subjects: the faults of runner_fault_test reported
// as precisely (and with the steps that shared memory keeps where a process of its own loses
// them), one server outliving its runs' faults, the fallback for subjects that cannot serve forks,
// and traces identical, event for event, to one process per run for every subject of the suite.

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cpu_pinning.hpp"
#include "exocheck/wire/delivery_label.hpp"
#include "runner_fixture.hpp"

namespace exocheck::agent::testing {
namespace {

struct Forked {
  RunReport report;
  RunnerCounters counters;
};

/// Every test runs twice: with the runs forked from the server, and performed in it, in place.
class ForkServer : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (in_place() && !kernel_runs_in_place()) GTEST_SKIP() << "this kernel cannot run in place (Linux 6.7)";
  }

  bool in_place() const { return GetParam(); }

  RunnerOptions options(RunnerOptions base = {}) const {
    base.in_place = in_place();
    return base;
  }

  /// The runs the server performed, the way this test asks for; none may have gone the other way.
  std::uint64_t served(const RunnerCounters& counters) const {
    EXPECT_EQ(in_place() ? counters.forked_runs : counters.in_place_runs, 0u);
    return in_place() ? counters.in_place_runs : counters.forked_runs;
  }

  Forked run_served(const std::string& binary, const std::vector<std::string>& args = {}) const {
    Runner runner(options());
    auto report = runner.run(spec_of(binary, args));
    return {std::move(report), runner.counters()};
  }

  void expect_served_once(const RunnerCounters& counters) const {
    EXPECT_EQ(counters.server_starts, 1u);
    EXPECT_EQ(served(counters), 1u);
    EXPECT_EQ(counters.process_runs, 0u);
  }
};

INSTANTIATE_TEST_SUITE_P(Modes, ForkServer, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "InPlace" : "Forked"; });

// The run goes on after writing garbage until the runner kills it, so how many steps it recorded
// by then depends on timing: at least steps 0 to 2, and the detail names the last one.
std::string expect_relay_steps_then_more(const RunReport& report) {
  EXPECT_GE(report.events.size(), 3u);
  EXPECT_LE(report.events.size(), 7u);
  if (report.events.size() < 3) return "";
  EXPECT_EQ(report.events[2].message(), "0#1");
  const auto& last = report.events.back();
  return "after step " + std::to_string(last.step()) + " (message " + last.message() + " at actor " + last.actor() +
         ")";
}

// This process's children (its fork servers among them).
std::vector<pid_t> children_of_this_process() {
  std::vector<pid_t> children;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const auto name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const auto after_name = line.rfind(')');
    if (after_name == std::string::npos) continue;
    std::istringstream fields(line.substr(after_name + 2));
    char state = 0;
    pid_t parent = 0;
    if (fields >> state >> parent && parent == ::getpid()) children.push_back(std::stoi(name));
  }
  return children;
}

// A run and the worker driving it hand over to each other and never run at once: the server runs
// on the worker's CPU, and follows the worker when it moves.
TEST_P(ForkServer, RunsOnTheCpuOfTheThreadThatDrivesIt) {
  const auto allowed = allowed_cpus();
  if (allowed.size() < 2) GTEST_SKIP() << "one CPU: nowhere to move to";
  Runner runner(options());
  for (const int cpu : {allowed[0], allowed[1], allowed[0]}) {
    ASSERT_TRUE(pin_this_thread({cpu}));
    EXPECT_EQ(runner.run(spec_of(bin("registry"))).result.status(), proto::RUN_COMPLETED);
    const auto servers = children_of_this_process();
    ASSERT_EQ(servers.size(), 1u);
    EXPECT_EQ(allowed_cpus(servers[0]), std::vector<int>{cpu});
  }
  ASSERT_TRUE(pin_this_thread(allowed));
  EXPECT_EQ(runner.counters().server_starts, 1u);
  EXPECT_EQ(served(runner.counters()), 3u);
}

TEST_P(ForkServer, KeepsTheStepsBeforeAnImmediateExit) {
  const auto [report, counters] = run_served(bin("fault_early_exit"), {"--immediate"});
  expect_served_once(counters);
  EXPECT_EQ(report.result.status(), proto::RUN_EXIT_WITHOUT_RESULT);
  EXPECT_EQ(report.result.exit_code(), 7);
  expect_relay_steps_to_fault(report, false);  // _exit(): no last words
  EXPECT_EQ(report.result.detail(),
            bin("fault_early_exit") + " exited with code 7 without a result " + kAfterStep2 + "; prefix of 0 messages");
}

// The run writes garbage on the control socket it inherited from the server: the server's stream
// is out of step, so the run is killed and reported, with the steps it had recorded. (A process
// of its own loses them: they are still in its buffer when the garbage arrives.)
TEST_P(ForkServer, ReportsGarbageOnTheChannelAfterTheStepsBeforeIt) {
  Forked forked;
  const auto taken = milliseconds_taken([&] { forked = run_served(bin("fault_garbage")); });
  expect_served_once(forked.counters);
  EXPECT_LT(taken, 1000);
  EXPECT_EQ(forked.report.result.status(), proto::RUN_PROTOCOL_ERROR);
  const std::string after = expect_relay_steps_then_more(forked.report);
  EXPECT_EQ(forked.report.result.detail(),
            bin("fault_garbage") + ": unparseable frame of 64 bytes " + after + "; prefix of 0 messages");
}

TEST_P(ForkServer, ReportsAnOversizedFrame) {
  const auto [report, counters] = run_served(bin("fault_garbage"), {"--oversized"});
  expect_served_once(counters);
  EXPECT_EQ(report.result.status(), proto::RUN_PROTOCOL_ERROR);
  const std::string after = expect_relay_steps_then_more(report);
  EXPECT_EQ(report.result.detail(),
            bin("fault_garbage") + ": oversized frame of 1073741824 bytes " + after + "; prefix of 0 messages");
}

TEST_P(ForkServer, RunsAProgramWithAThreadOneProcessPerRunWithoutRetryingTheServer) {
  Runner runner(options());
  for (int i = 0; i < 3; ++i) {
    const auto report = runner.run(spec_of(bin("fault_threads")));
    EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED) << report.result.detail();
    EXPECT_EQ(steps_of(report), first_steps(6));
  }
  EXPECT_EQ(runner.counters().server_starts, 1u);
  EXPECT_EQ(runner.counters().served_runs(), 0u);
  EXPECT_EQ(runner.counters().process_runs, 3u);
}

// A forking server outlives them; a server in place is the run, so it goes with it, and the next
// run gets a new one.
TEST_P(ForkServer, OutlivesCrashingAndHangingRunsOrIsReplaced) {
  const std::uint64_t starts = in_place() ? 2 : 1;
  Runner runner(options());
  std::vector<proto::RunStatus> statuses;
  for (int i = 0; i < 2; ++i) statuses.push_back(runner.run(spec_of(bin("fault_crash"))).result.status());
  EXPECT_EQ(runner.counters().server_starts, starts);
  EXPECT_EQ(served(runner.counters()), 2u);
  Runner hangs(options());
  for (int i = 0; i < 2; ++i) {
    statuses.push_back(hangs.run(spec_of(bin("fault_hang"), {}, std::chrono::milliseconds(300))).result.status());
  }
  EXPECT_EQ(hangs.counters().server_starts, starts);
  EXPECT_EQ(served(hangs.counters()), 2u);
  EXPECT_EQ(statuses,
            (std::vector<proto::RunStatus>{proto::RUN_CRASH, proto::RUN_CRASH, proto::RUN_HANG, proto::RUN_HANG}));
}

// The buffer's size is exocheck's limit, not the program's fault.
TEST_P(ForkServer, ReportsARunWhoseEventsDoNotFitTheBufferAsExochecksFailure) {
  Runner runner(options(RunnerOptions{.event_buffer_bytes = 64 * 1024}));
  const auto report = runner.run(spec_of(bin("pingpong"), {"--steps", "5000"}));
  EXPECT_EQ(served(runner.counters()), 1u);
  EXPECT_EQ(report.result.status(), proto::RUN_EXOCHECK_FAILED);
  ASSERT_FALSE(report.events.empty());
  EXPECT_LT(report.events.size(), 5001u);  // the events that fitted, in order from step 0
  EXPECT_EQ(report.events.back().step(), report.events.size() - 1);
  EXPECT_NE(report.result.detail().find(": events beyond the 65472 bytes of the event buffer after step " +
                                        std::to_string(report.events.back().step())),
            std::string::npos)
      << report.result.detail();
  // A run that fits afterwards is unaffected.
  EXPECT_EQ(runner.run(spec_of(bin("pingpong"), {"--steps", "10"})).result.status(), proto::RUN_COMPLETED);
}

TEST_P(ForkServer, StartsAFreshServerAfterGarbageOnTheChannel) {
  Runner runner(options());
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(runner.run(spec_of(bin("fault_garbage"))).result.status(), proto::RUN_PROTOCOL_ERROR);
  }
  EXPECT_EQ(runner.counters().server_starts, 2u);
  EXPECT_EQ(served(runner.counters()), 2u);
}

// The equality the fork server must keep: the events and the result (all but the stderr tail,
// which in a process of its own also holds what main printed before System::run()).
void expect_same_run(const RunReport& forked, const RunReport& own, const std::string& what) {
  ASSERT_EQ(forked.events.size(), own.events.size()) << what;
  for (std::size_t i = 0; i < own.events.size(); ++i) {
    ASSERT_EQ(forked.events[i].SerializeAsString(), own.events[i].SerializeAsString())
        << what << ", step " << i << ":\n"
        << forked.events[i].DebugString() << "against\n"
        << own.events[i].DebugString();
  }
  proto::RunResult a = forked.result, b = own.result;
  a.clear_stderr_tail();
  b.clear_stderr_tail();
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString()) << what << ":\n" << a.DebugString() << b.DebugString();
}

struct Invocation {
  std::string subject;
  std::vector<std::string> args;
};

// Every subject of the suite, at the sizes its exploration tests use or smaller.
const std::vector<Invocation> kSuite{
    {"registry", {}},
    {"registry", {"--workers", "5"}},
    {"pi", {"--workers", "3"}},
    {"fib", {"--n", "4"}},
    {"quicksort", {"--n", "5"}},
    {"pipesort", {"--n", "3"}},
    {"spinsort", {"--n", "3"}},
    {"chameneos", {"--creatures", "2", "--meetings", "2"}},
    {"leader", {"--n", "3"}},
    {"shortpath", {"--nodes", "4"}},
    {"regsim", {"--clients", "2"}},
    {"regsim-2-level", {"--clients", "2", "--registrars", "2"}},
    {"diningphil", {"--n", "3"}},
    {"minesweeper", {"--rows", "1", "--cols", "4"}},
    {"le-erlang", {"--nodes", "3", "--failures", "1"}},
    {"clientserver", {}},
    {"serverreal", {}},
    {"futures-dataproc", {"--futures", "3"}},
    {"futures-deadlock", {}},
    {"futures-datarace", {}},
    {"gcl-determinism", {}},
    {"pingpong", {"--steps", "300"}},
};

TEST_P(ForkServer, TracesAreIdenticalToOneProcessPerRunForEverySubjectOfTheSuite) {
  std::size_t compared = 0;
  // Every served run is reported into this one report: its events are parsed into the messages of
  // earlier runs, of other subjects and lengths, and must come out as a fresh report's.
  RunReport forked;
  for (const auto& [subject, args] : kSuite) {
    struct stat info {};
    if (::stat(bin(subject).c_str(), &info) != 0) continue;  // subjects are optional targets
    Runner forking(options()), own(RunnerOptions{.fork_server = false});
    std::vector<proto::RunRequest> requests;
    for (const auto heuristic : {proto::FIFO, proto::LIFO, proto::ECA, proto::LCA, proto::LDM, proto::HDM}) {
      proto::RunRequest request;
      request.set_heuristic(heuristic);
      request.set_step_limit(400);
      requests.push_back(request);
    }
    // A prefix replayed, then a sleeping message: the LIFO run's first two choices, FIFO after.
    const auto lifo = own.run(spec_of(bin(subject), args, std::chrono::milliseconds(10000), requests[1]));
    ASSERT_GE(lifo.events.size(), 2u) << subject << ": " << lifo.result.detail();
    proto::RunRequest replay;
    for (std::size_t i = 1; i < std::min<std::size_t>(3, lifo.events.size()); ++i) {
      replay.add_prefix(lifo.events[i].message());
    }
    if (lifo.events.size() > 3 && lifo.events[3].enabled_size() > 1) replay.add_sleep(lifo.events[3].enabled(0));
    requests.push_back(replay);
    for (std::size_t r = 0; r < requests.size(); ++r) {
      const auto spec = spec_of(bin(subject), args, std::chrono::milliseconds(10000), requests[r]);
      forking.run(spec, forked);
      const auto alone = own.run(spec);
      ASSERT_NE(alone.result.status(), proto::RUN_LAUNCH_FAILED) << subject << ": " << alone.result.detail();
      expect_same_run(forked, alone, subject + " request " + std::to_string(r));
      ++compared;
    }
    EXPECT_EQ(forking.counters().server_starts, 1u) << subject;
    EXPECT_EQ(served(forking.counters()), requests.size()) << subject;
    EXPECT_EQ(forking.counters().process_runs, 0u) << subject;
  }
  EXPECT_GE(compared, 7u);  // at least registry and pingpong, built with the tests
}

// After its first run, a server keeps the events of the steps a run makes as the last run made
// them (runtime_hook/src/kept_steps.hpp). Depth-first, each run here replays a prefix of the last
// one and goes on its own way; then a step limit ends a run before the steps it would keep, the
// run after it replays more than was kept, one must build every event, and the fault budget
// changes what a step offers. Every run's trace must be a process of its own's, event for event.
TEST_P(ForkServer, RunsKeepingTheLastRunsStepsGiveTheTracesOfOneProcessPerRun) {
  const std::vector<Invocation> subjects{{"registry", {"--workers", "4"}},
                                         {"pingpong", {"--steps", "40"}},
                                         {"chameneos", {"--creatures", "3", "--meetings", "2"}},
                                         {"election", {}}};
  std::size_t compared = 0;
  for (const auto& [subject, args] : subjects) {
    struct stat info {};
    if (::stat(bin(subject).c_str(), &info) != 0) continue;  // subjects are optional targets
    Runner forking(options()), own(RunnerOptions{.fork_server = false});
    RunReport forked;
    const auto both = [&](const proto::RunRequest& request, const std::string& what) {
      const auto spec = spec_of(bin(subject), args, std::chrono::milliseconds(10000), request);
      forking.run(spec, forked);
      auto alone = own.run(spec);
      expect_same_run(forked, alone, subject + ", " + what);
      ++compared;
      return alone;
    };
    const auto replaying = [](const RunReport& last, std::size_t steps, proto::Heuristic heuristic) {
      proto::RunRequest request;
      request.set_heuristic(heuristic);
      for (std::size_t i = 1; i <= steps && i < last.events.size(); ++i) {
        request.add_prefix(wire::label_of(last.events[i]));
      }
      return request;
    };
    proto::RunRequest first;
    first.set_heuristic(proto::LIFO);
    const auto lifo = both(first, "LIFO");
    auto last = lifo;
    const std::size_t made = last.events.size() - 1;
    ASSERT_GE(made, 4u) << subject << ": " << last.result.detail();
    for (const std::size_t steps : {made - 1, made / 2, std::size_t{2}, std::size_t{1}}) {
      last = both(replaying(last, steps, steps % 2 == 0 ? proto::FIFO : proto::HDM),
                  "a prefix of " + std::to_string(steps) + " steps of the last run");
    }
    // A backtrack: the last run's first steps, then another message enabled where it chose.
    auto other = replaying(last, 2, proto::FIFO);
    for (const auto& enabled : last.events[3].enabled()) {
      if (enabled != last.events[3].message()) {
        other.add_prefix(enabled);
        break;
      }
    }
    last = both(other, "the last run's first steps, then another message");
    last = both(replaying(lifo, made, proto::FIFO), "another run's steps");
    last = both(replaying(last, made, proto::LIFO), "the longest prefix again");
    auto limited = replaying(last, made, proto::LIFO);
    limited.set_step_limit(2);
    both(limited, "a step limit before the kept steps");
    both(replaying(last, made, proto::LIFO), "more steps than the run before kept");
    auto whole = replaying(last, made - 1, proto::FIFO);
    whole.set_whole_result(true);
    both(whole, "a whole result");
    auto faulty = replaying(last, made - 1, proto::FIFO);
    faulty.mutable_faults()->set_losses(1);
    last = both(faulty, "a loss offered in every send");
    both(replaying(last, made - 1, proto::FIFO), "no faults again");
    EXPECT_EQ(forking.counters().server_starts, 1u) << subject;
  }
  EXPECT_GE(compared, 20u);  // registry and pingpong at least, built with the tests
}

// The processes this thread started that are still alive (or not yet reaped).
std::vector<pid_t> children_of_this_thread() {
  std::ifstream list("/proc/self/task/" + std::to_string(::gettid()) + "/children");
  std::vector<pid_t> children;
  for (pid_t pid; list >> pid;) children.push_back(pid);
  return children;
}

TEST_P(ForkServer, SurvivesItsServerBeingKilledAndStartsAnother) {
  Runner runner(options());
  const auto first = runner.run(spec_of(bin("registry")));
  ASSERT_EQ(first.result.status(), proto::RUN_COMPLETED) << first.result.detail();
  const auto servers = children_of_this_thread();
  ASSERT_EQ(servers.size(), 1u);
  ASSERT_EQ(::kill(servers[0], SIGKILL), 0);
  // The dead server is noticed when the next request cannot be sent: that run gets a process of
  // its own, and the one after a new server.
  for (int i = 0; i < 2; ++i) {
    const auto again = runner.run(spec_of(bin("registry")));
    EXPECT_EQ(again.result.status(), proto::RUN_COMPLETED) << again.result.detail();
    expect_same_run(again, first, "after the server was killed");
  }
  EXPECT_EQ(served(runner.counters()), 2u);
  EXPECT_EQ(runner.counters().process_runs, 1u);
  EXPECT_EQ(runner.counters().server_starts, 2u);
}

// A build replaced the way a linker does it: a new file renamed over the old one (a binary being
// executed cannot be rewritten in place).
void install(const std::string& built, const std::string& installed) {
  const std::string next = installed + ".next";
  std::filesystem::copy_file(built, next, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::rename(next, installed);
}

// A runner kept between explorations (exocheck-agent keeps one per slot from job to job) must not
// serve a rebuilt binary's runs from the old build's server.
TEST_P(ForkServer, PrepareStopsTheServerOfABinaryRebuiltSinceItStarted) {
  const auto dir = std::filesystem::temp_directory_path() / ("exocheck-rebuilt-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string subject = (dir / "subject").string();
  install(bin("registry"), subject);
  Runner runner(options());
  EXPECT_FALSE(runner.prepare(subject, {}));  // no server yet
  const auto registry = runner.run(spec_of(subject));
  ASSERT_EQ(registry.result.status(), proto::RUN_COMPLETED) << registry.result.detail();
  EXPECT_TRUE(runner.prepare(subject, {}));
  EXPECT_FALSE(runner.prepare(subject, {"--workers", "3"}));  // another invocation needs another server
  EXPECT_EQ(runner.counters().server_starts, 1u);

  install(bin("pingpong"), subject);
  const std::vector<std::string> ten_steps{"--steps", "10"};
  EXPECT_FALSE(runner.prepare(subject, {}));
  EXPECT_FALSE(runner.prepare(subject, ten_steps));
  const auto pingpong = runner.run(spec_of(subject, ten_steps));
  expect_same_run(pingpong, run(bin("pingpong"), ten_steps), "the rebuilt binary");
  EXPECT_EQ(runner.counters().server_starts, 2u);
  EXPECT_EQ(served(runner.counters()), 2u);
  EXPECT_TRUE(runner.prepare(subject, ten_steps));
  std::filesystem::remove_all(dir);
}

TEST_P(ForkServer, StartsItsServerBeforeAnyRunWhenAsked) {
  Runner runner(options());
  EXPECT_TRUE(runner.start_server(bin("registry"), {}, std::chrono::seconds(5)));
  EXPECT_TRUE(runner.prepare(bin("registry"), {}));
  EXPECT_EQ(children_of_this_thread().size(), 1u);
  const auto report = runner.run(spec_of(bin("registry")));
  EXPECT_EQ(report.result.status(), proto::RUN_COMPLETED) << report.result.detail();
  EXPECT_TRUE(runner.start_server(bin("registry"), {}, std::chrono::seconds(5)));  // ready: nothing to start
  EXPECT_EQ(runner.counters().server_starts, 1u);
  EXPECT_EQ(served(runner.counters()), 1u);
  EXPECT_FALSE(Runner(RunnerOptions{.fork_server = false}).start_server(bin("registry"), {}, std::chrono::seconds(5)));
}

// The local agent gives up a worker's server start when the exploration ends first: the start
// must end at once, kill what it started, and not count the subject as one without a server.
TEST_P(ForkServer, GivesUpAServerStartOnceAskedAndKillsTheSubject) {
  int give_up[2];
  ASSERT_EQ(::pipe(give_up), 0);
  Runner runner(options());
  std::thread asker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(::write(give_up[1], "x", 1), 1);
  });
  const std::vector<std::string> slow_start{"sleep:20000", "hello"};
  const auto start = std::chrono::steady_clock::now();
  const bool ready = runner.start_server(bin("scripted_hook"), slow_start, std::chrono::seconds(30), give_up[0]);
  const auto took = std::chrono::steady_clock::now() - start;
  asker.join();
  ::close(give_up[0]);
  ::close(give_up[1]);
  EXPECT_FALSE(ready);
  EXPECT_LT(took, std::chrono::seconds(5));
  EXPECT_TRUE(children_of_this_thread().empty());
  // Not refused: the next start tries again, and this time the subject is too slow for it.
  EXPECT_FALSE(runner.start_server(bin("scripted_hook"), slow_start, std::chrono::milliseconds(200)));
  EXPECT_EQ(runner.counters().server_starts, 2u);
  EXPECT_FALSE(runner.start_server(bin("scripted_hook"), slow_start, std::chrono::milliseconds(200)));
  EXPECT_EQ(runner.counters().server_starts, 2u);  // refused now: not tried again
}

}  // namespace
}  // namespace exocheck::agent::testing
