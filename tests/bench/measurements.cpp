#include "measurements.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/format.h>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/io.hpp>

#include "decoded_execution.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/wire/frame.hpp"

namespace exocheck::bench {
namespace {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

/// CPU seconds (user + system) used so far by this process or by its reaped children.
double cpu_seconds(int who) {
  struct ::rusage usage {};
  ::getrusage(who, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// Wall-clock and CPU time of one run of `body`, which starts and reaps one subject process.
template <typename Body>
StepCost timed(std::uint64_t steps, Body&& body) {
  StepCost cost;
  cost.steps = steps;
  const double runner_before = cpu_seconds(RUSAGE_SELF), subject_before = cpu_seconds(RUSAGE_CHILDREN);
  const auto start = Clock::now();
  cost.outcome = body();
  cost.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  cost.runner_cpu_seconds = cpu_seconds(RUSAGE_SELF) - runner_before;
  cost.subject_cpu_seconds = cpu_seconds(RUSAGE_CHILDREN) - subject_before;
  return cost;
}

/// Repeats `body` and keeps the fastest run; stops at the first failure and reports it.
/// `untimed` runs after each timing (to free what the run produced).
template <typename Body, typename Untimed>
StepCost fastest_of(int repeat, std::uint64_t steps, Body&& body, Untimed&& untimed) {
  StepCost best;
  for (int i = 0; i < repeat; ++i) {
    StepCost cost = timed(steps, body);
    untimed();
    if (cost.outcome.starts_with("failed")) return cost;
    if (i == 0 || cost.seconds < best.seconds) best = cost;
  }
  return best;
}

agent::RunSpec pingpong_spec(const std::string& pingpong, std::uint64_t steps) {
  agent::RunSpec spec;
  spec.binary = pingpong;
  spec.args = {"--steps", std::to_string(steps)};
  spec.timeout = std::chrono::minutes(5);
  return spec;
}

}  // namespace

StepCost measure_controlled_steps(const std::string& pingpong, std::uint64_t steps, int repeat,
                                  const agent::RunnerOptions& runner_options) {
  // The report outlives the timing: freeing 100,000 events is the consumer's cost, not the run's.
  agent::RunReport report;
  const auto run = [&]() -> std::string {
    // A runner per run, so that its fork server (started and reaped within the timing) is counted.
    agent::Runner runner(runner_options);
    report = runner.run(pingpong_spec(pingpong, steps));
    if (report.result.status() != proto::RUN_COMPLETED) return "failed: " + report.result.detail();
    return fmt::format("completed with {} events", report.events.size());
  };
  return fastest_of(repeat, steps, run, [&] { report = agent::RunReport(); });
}

StepCost measure_explored_steps(const std::string& pingpong, std::uint64_t steps, int repeat,
                                const agent::RunnerOptions& runner_options) {
  // As an exploration's worker takes a run: its events decoded straight from the hook's bytes
  // (RunSpec::lean_events), into storage kept from run to run.
  agent::DecodedExecution decoded;
  const auto run = [&]() -> std::string {
    agent::Runner runner(runner_options);
    auto spec = pingpong_spec(pingpong, steps);
    spec.lean_events = &decoded;
    const auto report = runner.run(spec);
    if (report.result.status() != proto::RUN_COMPLETED) return "failed: " + report.result.detail();
    if (!report.events_taken) return "failed: the run's events were not decoded as an exploration's";
    return fmt::format("completed with {} steps decoded", decoded.execution().steps.size());
  };
  return fastest_of(repeat, steps, run, [] {});
}

StepCost measure_uncontrolled_steps(const std::string& pingpong, std::uint64_t steps, int repeat) {
  return fastest_of(
      repeat, steps,
      [&]() -> std::string {
        std::error_code error;
        bp::child child(pingpong, bp::args = {"--steps", std::to_string(steps)}, bp::std_out > bp::null,
                        bp::std_in < bp::null, bp::env[wire::kControlFdVariable] = boost::none, error);
        if (!error) child.wait(error);
        if (error) return "failed: " + error.message();
        if (child.exit_code() != 0) return fmt::format("failed: exit code {}", child.exit_code());
        return "exited 0";
      },
      [] {});
}

}  // namespace exocheck::bench
