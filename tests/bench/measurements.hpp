#pragma once
// The cost of one macro-step under the runner and by hand.

#include <cstdint>
#include <string>

#include "exocheck/agent/runner.hpp"

namespace exocheck::bench {

/// One long run of a subject that makes `steps` macro-steps; the best of several repetitions.
struct StepCost {
  std::uint64_t steps = 0;
  double seconds = 0;              ///< wall-clock time of the whole run, process start to exit
  double runner_cpu_seconds = 0;   ///< CPU time (user + system) of this process during the run
  double subject_cpu_seconds = 0;  ///< CPU time of the subject process
  std::string outcome;             ///< "completed with 100001 events", or what went wrong
  double nanoseconds_per_step() const { return per_step(seconds); }
  double runner_cpu_ns_per_step() const { return per_step(runner_cpu_seconds); }
  double subject_cpu_ns_per_step() const { return per_step(subject_cpu_seconds); }

 private:
  double per_step(double total) const { return steps > 0 ? total * 1e9 / static_cast<double>(steps) : 0; }
};

/// Runs `pingpong --steps N` through the runner `repeat` times; keeps the fastest.
/// With a fork server, the timing includes the server's start-up.
StepCost measure_controlled_steps(const std::string& pingpong, std::uint64_t steps, int repeat,
                                  const agent::RunnerOptions& runner_options);

/// The same, its events decoded as an exploration's worker decodes them (not parsed into trace
/// events): what a controlled step costs an exploration.
StepCost measure_explored_steps(const std::string& pingpong, std::uint64_t steps, int repeat,
                                const agent::RunnerOptions& runner_options);

/// Starts `pingpong --steps N` by hand (no control channel) `repeat` times; keeps the fastest.
StepCost measure_uncontrolled_steps(const std::string& pingpong, std::uint64_t steps, int repeat);

}  // namespace exocheck::bench
