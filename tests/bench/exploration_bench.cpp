#include "exploration_bench.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "available_parallelism.hpp"
#include "cpu_pinning.hpp"
#include "cpu_shares.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "local_agent.hpp"

namespace exocheck::bench {
namespace {

double seconds_of(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) * 1e-6;
}

double cpu_seconds(const rusage& usage) {
  return seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
}

rusage usage_of(int who) {
  rusage usage{};
  ::getrusage(who, &usage);
  return usage;
}

// Pins this thread, and so every thread and process it starts later, to `cores` CPUs it may use,
// from the `first`-th on: the figure "on one core" then includes the subject's processes on that
// core.
std::vector<int> pin_to(std::size_t cores, std::size_t first = 0) {
  auto cpus = agent::allowed_cpus();
  if (cpus.size() < first + cores) {
    throw std::runtime_error("only " + std::to_string(cpus.size()) + " CPUs are available, " +
                             std::to_string(first + cores) + " asked for");
  }
  cpus.erase(cpus.begin(), cpus.begin() + static_cast<std::ptrdiff_t>(first));
  cpus.resize(cores);
  if (!agent::pin_this_thread(cpus)) throw std::runtime_error("cannot pin to " + std::to_string(cores) + " CPUs");
  return cpus;
}

// One exploration, stopped at `deadline` if it is not over by then.
struct Explored {
  std::uint64_t executions = 0, classes = 0;
  std::uint64_t executed_steps = 0, transitions = 0;
  std::uint64_t bugs = 0;
  bool complete = false;
  bool cut_short = false;  ///< stopped by the time limit
  agent::LocalAgentStats stats;
};

agent::LocalAgentOptions local_agent_options(const ExplorationSetup& setup) {
  const auto runner = runner_options(setup.mode);
  return {.workers = setup.cores, .fork_server = runner.fork_server, .pin_workers = true, .in_place = runner.in_place};
}

}  // namespace

const char* name_of(RunMode mode) {
  switch (mode) {
    case RunMode::in_place:
      return "in-place";
    case RunMode::in_place_kept:
      return "in-place-kept";
    case RunMode::fork:
      return "fork";
    case RunMode::process:
      return "process";
  }
  return "?";
}

std::optional<RunMode> run_mode_named(const std::string& name) {
  for (const RunMode mode : {RunMode::in_place, RunMode::in_place_kept, RunMode::fork, RunMode::process}) {
    if (name == name_of(mode)) return mode;
  }
  return std::nullopt;
}

agent::RunnerOptions runner_options(RunMode mode) {
  return {.fork_server = mode != RunMode::process,
          .in_place = mode == RunMode::in_place || mode == RunMode::in_place_kept};
}

nlohmann::json measure_available_parallelism(const std::string& subject, const std::vector<std::string>& args,
                                             std::size_t workers) {
  pin_to(1);
  constexpr std::uint64_t kMaxExecutions = 100'000;
  const auto options = exploration_options(subject, args);
  RunCache runs(subject, args);
  const auto one = lockstep_schedule(options, 1, runs, kMaxExecutions);
  const auto many = lockstep_schedule(options, workers, runs, kMaxExecutions);
  const auto figures = [](const LockstepSchedule& schedule) {
    return nlohmann::json{
        {"executions", schedule.executions}, {"rounds", schedule.rounds}, {"complete", schedule.complete}};
  };
  // One worker needs a round per execution: the rate on `workers` over the rate on one is the
  // executions of a round.
  return {{"workers", workers},
          {"one_worker", figures(one)},
          {"all_workers", figures(many)},
          {"speedup", many.executions_per_round()},
          {"distinct_runs", runs.runs()}};
}

namespace {

// With `kept` (mode in_place_kept), the exploration is served by that agent, whose workers keep
// their threads and fork servers from one exploration to the next; else by an agent of its own.
Explored explore_once(const coordinator::ExplorationOptions& options, const ExplorationSetup& setup,
                      std::chrono::steady_clock::time_point deadline, agent::LocalAgent* kept) {
  coordinator::ExplorationSession session(options);
  Explored explored;
  {
    std::optional<agent::LocalAgent> own;
    agent::LocalAgent& agent = kept ? *kept : own.emplace(local_agent_options(setup));
    agent.serve(session);
    while (!agent.wait_for(std::chrono::milliseconds(5))) {
      if (std::chrono::steady_clock::now() >= deadline) {
        session.stop();
        explored.cut_short = true;
      }
    }
    if (const auto error = agent.launch_error()) throw std::runtime_error(*error);
    explored.stats = agent.stats();
  }  // an agent of its own reaps its fork servers here: their CPU joins RUSAGE_CHILDREN
  const auto progress = session.progress();
  explored.executions = progress.stats.paths + progress.stats.sleep_blocked;
  explored.classes = progress.stats.classes;
  explored.executed_steps = progress.stats.executed_steps;
  explored.transitions = progress.stats.transitions;
  // Explorations go on after bugs (keep_going): one that found bugs is complete too, unless the
  // time limit stopped it.
  const auto verdict = session.verdict();
  explored.complete = !explored.cut_short &&
                      (verdict == coordinator::Verdict::kCompleteNoBug || verdict == coordinator::Verdict::kBugFound);
  explored.bugs = progress.bugs;
  return explored;
}

}  // namespace

// Small programs are explored completely in a fraction of the time: they are explored again and
// again until the time is up, each exploration with its own session, agent and fork servers, as a
// user running exocheck explore would; in mode in_place_kept, one agent serves them all: its workers
// keep their threads and fork servers from one exploration to the next, as exocheck-agent keeps its
// slots from one job to the next.
nlohmann::json measure_exploration(const std::string& subject, const std::vector<std::string>& args,
                                   const ExplorationSetup& setup) {
  const auto cpus = pin_to(setup.cores, setup.first_cpu);
  const auto options = exploration_options(subject, args);
  const auto ticks_before = cpu_ticks(cpus);

  const auto self_before = usage_of(RUSAGE_SELF);
  const auto children_before = usage_of(RUSAGE_CHILDREN);
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(setup.seconds));
  std::uint64_t executions = 0, explorations = 0, classes = 0, bugs = 0, executed_steps = 0, transitions = 0;
  bool complete = true;  // every exploration but a last one cut short by the time limit was complete
  agent::LocalAgentStats stats;
  std::optional<agent::LocalAgent> kept;
  if (setup.mode == RunMode::in_place_kept) kept.emplace(local_agent_options(setup));
  do {
    const auto explored = explore_once(options, setup, deadline, kept ? &*kept : nullptr);
    executions += explored.executions;
    executed_steps += explored.executed_steps;
    transitions += explored.transitions;
    if (explorations == 0) {
      classes = explored.classes;
      bugs = explored.bugs;
      complete = explored.complete;
    }
    ++explorations;
    stats += explored.stats;
  } while (complete && std::chrono::steady_clock::now() < deadline);
  // "complete": the first exploration explored every class (later ones repeat it).
  kept.reset();  // its fork servers are reaped here
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto self_after = usage_of(RUSAGE_SELF);
  const auto children_after = usage_of(RUSAGE_CHILDREN);
  const auto ticks_after = cpu_ticks(cpus);

  const double self_cpu = cpu_seconds(self_after) - cpu_seconds(self_before);
  const double subject_cpu = cpu_seconds(children_after) - cpu_seconds(children_before);
  const double per_run = executions > 0 ? 1e6 / static_cast<double>(executions) : 0;
  return {
      {"cores", setup.cores},
      {"mode", name_of(setup.mode)},
      {"explorations", explorations},
      {"executions", executions},
      {"complete", complete},
      {"classes", classes},
      {"bugs", bugs},  // of the first exploration
      {"wall_seconds", wall},
      {"executions_per_second", wall > 0 ? static_cast<double>(executions) / wall : 0},
      {"us_per_execution", wall * per_run},
      // What checkpoints could save at most: the prefix steps each execution replays (every
      // executed step that is not a new transition of the tree).
      {"steps_per_execution", static_cast<double>(executed_steps) * per_run * 1e-6},
      {"replayed_steps_per_execution", static_cast<double>(executed_steps - transitions) * per_run * 1e-6},
      {"cpu_us_per_execution",
       {{"coordinator", stats.session_cpu_seconds * per_run},
        {"agent", stats.runner_cpu_seconds * per_run},
        {"subject_and_hook", subject_cpu * per_run},
        // Workers with a CPU each spin for a while before they sleep: CPU no other work wanted.
        {"spinning_for_a_lease", stats.lease_wait_cpu_seconds * per_run},
        {"other",
         (self_cpu - stats.session_cpu_seconds - stats.runner_cpu_seconds - stats.lease_wait_cpu_seconds) * per_run}}},
      // Where the workers' wall time went besides their CPU: the reasons a run on several cores
      // falls short of the exploration's available parallelism.
      {"worker_wait_us_per_execution", {{"for_a_lease", stats.lease_wait_seconds * per_run}}},
      // Of the CPUs pinned to, while measuring: the time taken by the hypervisor, and left idle.
      {"cpu_shares", cpu_shares(ticks_before, ticks_after)},
      {"peak_rss_kib", {{"explorer", self_after.ru_maxrss}, {"largest_subject_process", children_after.ru_maxrss}}},
      {"runs",
       {{"in_place", stats.runs.in_place_runs},
        {"forked", stats.runs.forked_runs},
        {"own_process", stats.runs.process_runs},
        {"server_starts", stats.runs.server_starts}}},
  };
}

nlohmann::json measure_runner_alone(const std::string& subject, const std::vector<std::string>& args, RunMode mode,
                                    std::uint64_t runs) {
  pin_to(1);
  agent::Runner runner(runner_options(mode));
  agent::RunSpec spec;
  spec.binary = subject;
  spec.args = args;
  const auto microseconds_per_run = [&](const proto::RunRequest& request, proto::RunStatus expected) {
    spec.request = request;
    const auto report = runner.run(spec);  // the first run starts the server: not timed
    if (report.result.status() != expected) {
      throw std::runtime_error(subject + ": " + proto::RunStatus_Name(report.result.status()) + ": " +
                               report.result.detail());
    }
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < runs; ++i) runner.run(spec);
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
           static_cast<double>(runs);
  };
  proto::RunRequest whole;
  proto::RunRequest cut_short;
  cut_short.add_prefix("no-such-message");
  // The floor of any fork-per-run design on this machine: fork, _exit and waitpid of this process.
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < runs; ++i) {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    if (child > 0) ::waitpid(child, nullptr, 0);
  }
  const double fork_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                         static_cast<double>(runs);
  // And of a minimal static program (fork_floor, built next to the subjects), pinned alike.
  double minimal_fork_us = 0;
  const auto fork_floor = std::filesystem::path(subject).parent_path() / "fork_floor";
  if (FILE* pipe = ::popen((fork_floor.string() + " " + std::to_string(runs)).c_str(), "r")) {
    if (std::fscanf(pipe, "%lf", &minimal_fork_us) != 1) minimal_fork_us = 0;
    ::pclose(pipe);
  }
  return {{"mode", name_of(mode)},
          {"us_per_fork_exit_wait_of_the_benchmark", fork_us},
          {"us_per_fork_exit_wait_of_a_minimal_static_program", minimal_fork_us},
          {"us_per_fifo_run", microseconds_per_run(whole, proto::RUN_COMPLETED)},
          {"us_per_run_ending_after_step_0", microseconds_per_run(cut_short, proto::RUN_DIVERGENCE)}};
}

}  // namespace exocheck::bench
