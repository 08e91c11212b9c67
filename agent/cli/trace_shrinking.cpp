#include "trace_shrinking.hpp"

#include <stdexcept>

#include "exit_status.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/agent/schedule_shrinker.hpp"

namespace exocheck::cli {
namespace {

using agent::causal_past;
using agent::failed_step;
using agent::fails_the_same_way;
using agent::minimize;
using agent::Schedule;
using agent::schedule_of_trace;

/// Replays candidate schedules of one failing trace on one runner (its fork server kept).
class Replays {
 public:
  Replays(const proto::TraceFile& original, RunSettings settings)
      : original_(original), settings_(std::move(settings)), failed_step_(failed_step(original).has_value()) {}

  /// The run of `schedule`. After a failed step's schedule the run stops (step limit): the
  /// failure, if any, is within it. A deadlock needs the run to go on to quiescence.
  proto::TraceFile run(const Schedule& schedule) {
    RunSettings settings = settings_;
    settings.prefix = schedule;
    if (failed_step_) settings.conditions.step_limit = schedule.size();
    ++runs_;
    return record_run(settings, runner_);
  }

  bool still_fails(const Schedule& schedule) { return fails_the_same_way(original_, run(schedule)); }
  std::size_t runs() const { return runs_; }

 private:
  const proto::TraceFile& original_;
  RunSettings settings_;
  bool failed_step_;
  agent::Runner runner_;
  std::size_t runs_ = 0;
};

}  // namespace

ShrunkTrace shrink_failing_trace(const proto::TraceFile& original, const RunSettings& settings,
                                 const std::function<bool()>& stop) {
  Replays replays(original, settings);
  bool stopped = false;
  // A candidate not tried counts as one that does not fail: what is kept still fails.
  const auto still_fails = [&](const Schedule& candidate) {
    if (stop && (stopped || stop())) {
      stopped = true;
      return false;
    }
    return replays.still_fails(candidate);
  };
  Schedule schedule = schedule_of_trace(original);
  if (!replays.still_fails(schedule)) {
    throw InputError("replaying the trace does not fail the same way (a nondeterministic subject?)");
  }
  if (const auto failing = failed_step(original)) {
    Schedule past = causal_past(original, *failing);
    if (past.size() < schedule.size() && still_fails(past)) schedule = std::move(past);
  }
  schedule = minimize(schedule, still_fails);
  ShrunkTrace shrunk{replays.run(schedule), 0, stopped};
  shrunk.runs = replays.runs();
  if (!fails_the_same_way(original, shrunk.trace)) throw std::logic_error("the shortest schedule no longer fails");
  return shrunk;
}

}  // namespace exocheck::cli
