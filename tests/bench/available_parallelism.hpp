#pragma once
// How much parallelism an exploration offers by itself, apart from any cost of ours: the
// exploration is driven by W workers in lock-step rounds, as if every run took the same time and
// nothing else took any. Each round hands out every lease the session has, up to W, runs them,
// and hands their results back in that order. Executions over rounds is then the most W cores
// can give over one; a measured speedup below it is our overhead, and the rest is the
// exploration's: TransDPOR adds at most one backtrack entry per configuration until it is
// explored (its freeze flag), and a small exploration is mostly its first runs.

#include <cstdint>
#include <map>
#include <string>

#include "exocheck/agent/runner.hpp"
#include "exocheck/coordinator/exploration_session.hpp"

namespace exocheck::bench {

/// What every exploration of the benchmark uses: TransDPOR, sleep sets, FIFO, on past bugs.
coordinator::ExplorationOptions exploration_options(const std::string& subject, const std::vector<std::string>& args);

/// The runs of one subject, each request run once: the schedules for one and for W workers ask
/// for mostly the same requests.
class RunCache {
 public:
  RunCache(std::string subject, std::vector<std::string> args);
  /// The report of `request`'s run, run now if it has not been.
  const agent::RunReport& run(const proto::RunRequest& request);
  std::uint64_t runs() const { return runs_; }

 private:
  agent::Runner runner_;
  agent::RunSpec spec_;
  std::map<std::string, agent::RunReport> reports_;  // by the serialised request
  std::uint64_t runs_ = 0;
};

struct LockstepSchedule {
  std::uint64_t executions = 0;  ///< results handed back (the session's paths and sleep-blocked runs)
  std::uint64_t rounds = 0;
  std::uint64_t classes = 0;  ///< equivalence classes the session counted
  bool complete = false;      ///< false: stopped at the cap on executions
  /// Executions per round: the speedup over one worker, which needs one round per execution.
  double executions_per_round() const {
    return rounds > 0 ? static_cast<double>(executions) / static_cast<double>(rounds) : 0;
  }
};

/// Explores with `options` by `workers` workers in lock-step rounds, the runs from `runs`, until
/// the session is finished or `max_executions` results were handed back.
LockstepSchedule lockstep_schedule(const coordinator::ExplorationOptions& options, std::size_t workers, RunCache& runs,
                                   std::uint64_t max_executions);

}  // namespace exocheck::bench
