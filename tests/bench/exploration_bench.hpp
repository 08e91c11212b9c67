#pragma once
// Executions per second of whole explorations, as a user runs them (`exocheck explore`, embedded):
// the session, the local agent and its runners, the subject's processes. One measurement runs in
// a process of its own (exocheck-bench --measure ...), so that peak memory and the CPU of the
// subject's processes belong to it alone.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exocheck/agent/runner.hpp"

namespace exocheck::bench {

struct ExplorationCase {
  std::string label;  ///< e.g. "registry K=3"
  std::string subject;
  std::vector<std::string> args;
};

/// How the runner performs runs: in place in a fork server, forked from it, or one process each;
/// in_place_kept: in place, the workers (their threads and fork servers) kept from one exploration
/// to the next.
enum class RunMode { in_place, in_place_kept, fork, process };

/// "in-place", "in-place-kept", "fork", "process".
const char* name_of(RunMode mode);
/// The mode `name_of` names, or nullopt.
std::optional<RunMode> run_mode_named(const std::string& name);
agent::RunnerOptions runner_options(RunMode mode);

struct ExplorationSetup {
  std::size_t cores = 1;      ///< the process is pinned to this many CPUs, with as many workers, one per CPU
  std::size_t first_cpu = 0;  ///< the first of them, among the CPUs the process may use
  RunMode mode = RunMode::in_place;
  double seconds = 3;  ///< stop handing out runs after this long
};

/// The speedup `workers` cores could give over one at best, the exploration's own parallelism
/// (available_parallelism.hpp): its lock-step schedules on one worker and on `workers`, as JSON.
nlohmann::json measure_available_parallelism(const std::string& subject, const std::vector<std::string>& args,
                                             std::size_t workers);

/// Explores `subject` with TransDPOR, sleep sets and FIFO, within `setup`, and returns the
/// figures as JSON: paths, wall seconds, executions per second, microseconds per execution, CPU
/// of the coordinator's work, the agent's, the subject's processes (hook included) and the rest,
/// peak memory of this process and of the largest subject process, and how the runs were made.
nlohmann::json measure_exploration(const std::string& subject, const std::vector<std::string>& args,
                                   const ExplorationSetup& setup);

/// The runner alone on one core, without a coordinator: microseconds per run of `subject` for its
/// FIFO run, and for a run cut short after the initial step (a prefix naming no message), the
/// least a run can cost; `runs` of each.
nlohmann::json measure_runner_alone(const std::string& subject, const std::vector<std::string>& args, RunMode mode,
                                    std::uint64_t runs);

}  // namespace exocheck::bench
