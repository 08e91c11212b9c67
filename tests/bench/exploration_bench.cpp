#include "exploration_bench.hpp"

#include <sched.h>
#include <sys/resource.h>

#include <chrono>
#include <stdexcept>

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

// Pins this thread, and so every thread and process it starts later, to the first `cores` CPUs
// it may use: the figure "on one core" then includes the subject's processes on that core.
void pin_to(std::size_t cores) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) throw std::runtime_error("sched_getaffinity failed");
  cpu_set_t chosen;
  CPU_ZERO(&chosen);
  std::size_t taken = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && taken < cores; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    CPU_SET(cpu, &chosen);
    ++taken;
  }
  if (taken < cores) {
    throw std::runtime_error("only " + std::to_string(taken) + " CPUs are available, " + std::to_string(cores) +
                             " asked for");
  }
  if (::sched_setaffinity(0, sizeof chosen, &chosen) != 0) throw std::runtime_error("sched_setaffinity failed");
}

}  // namespace

nlohmann::json measure_exploration(const std::string& subject, const std::vector<std::string>& args,
                                   const ExplorationSetup& setup) {
  pin_to(setup.cores);
  coordinator::ExplorationOptions options;
  options.explorer.reduction = engine::Reduction::kTransDpor;
  options.explorer.sleep_sets = true;
  options.explorer.heuristic = engine::Heuristic::kFifo;
  options.keep_going = true;
  options.subject = subject;
  options.args = args;
  coordinator::ExplorationSession session(options);

  const auto self_before = usage_of(RUSAGE_SELF);
  const auto children_before = usage_of(RUSAGE_CHILDREN);
  const auto start = std::chrono::steady_clock::now();
  double wall = 0;
  agent::LocalAgentStats stats;
  {
    agent::LocalAgent agent(session, {setup.cores, std::chrono::milliseconds(10'000), setup.fork_server});
    while (!agent.wait_for(std::chrono::milliseconds(20))) {
      if (std::chrono::steady_clock::now() - start >= std::chrono::duration<double>(setup.seconds)) session.stop();
    }
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (const auto error = agent.launch_error()) throw std::runtime_error(*error);
    stats = agent.stats();
  }  // the runners' fork servers are reaped here: their CPU joins RUSAGE_CHILDREN
  const auto self_after = usage_of(RUSAGE_SELF);
  const auto children_after = usage_of(RUSAGE_CHILDREN);

  const auto progress = session.progress();
  const auto paths = progress.stats.paths + progress.stats.sleep_blocked;
  const double self_cpu = cpu_seconds(self_after) - cpu_seconds(self_before);
  const double subject_cpu = cpu_seconds(children_after) - cpu_seconds(children_before);
  const double per_run = paths > 0 ? 1e6 / static_cast<double>(paths) : 0;
  return {
      {"cores", setup.cores},
      {"fork_server", setup.fork_server},
      {"executions", paths},
      {"complete", session.verdict() == coordinator::Verdict::kCompleteNoBug},
      {"classes", progress.stats.classes},
      {"wall_seconds", wall},
      {"executions_per_second", wall > 0 ? static_cast<double>(paths) / wall : 0},
      {"us_per_execution", wall * per_run},
      {"cpu_us_per_execution",
       {{"coordinator", stats.session_cpu_seconds * per_run},
        {"agent", stats.runner_cpu_seconds * per_run},
        {"subject_and_hook", subject_cpu * per_run},
        {"other", (self_cpu - stats.session_cpu_seconds - stats.runner_cpu_seconds) * per_run}}},
      {"peak_rss_kib", {{"explorer", self_after.ru_maxrss}, {"largest_subject_process", children_after.ru_maxrss}}},
      {"runs",
       {{"forked", stats.runs.forked_runs},
        {"own_process", stats.runs.process_runs},
        {"server_starts", stats.runs.server_starts}}},
  };
}

}  // namespace exocheck::bench
