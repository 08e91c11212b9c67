#include "available_parallelism.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/wire/result_events.hpp"

namespace exocheck::bench {

coordinator::ExplorationOptions exploration_options(const std::string& subject, const std::vector<std::string>& args) {
  coordinator::ExplorationOptions options;
  options.explorer.reduction = engine::Reduction::kTransDpor;
  options.explorer.sleep_sets = true;
  options.explorer.heuristic = engine::Heuristic::kFifo;
  options.keep_going = true;
  options.subject = subject;
  options.args = args;
  return options;
}

RunCache::RunCache(std::string subject, std::vector<std::string> args) {
  spec_.binary = std::move(subject);
  spec_.args = std::move(args);
}

const agent::RunReport& RunCache::run(const proto::RunRequest& request) {
  auto [slot, fresh] = reports_.try_emplace(request.SerializeAsString());
  if (!fresh) return slot->second;
  spec_.request = request;
  runner_.run(spec_, slot->second);
  ++runs_;
  if (slot->second.result.status() == proto::RUN_LAUNCH_FAILED) {
    throw std::runtime_error(spec_.binary + ": " + slot->second.result.detail());
  }
  return slot->second;
}

LockstepSchedule lockstep_schedule(const coordinator::ExplorationOptions& options, std::size_t workers, RunCache& runs,
                                   std::uint64_t max_executions) {
  coordinator::ExplorationSession session(options);
  LockstepSchedule schedule;
  std::vector<coordinator::Lease> round;
  while (schedule.executions < max_executions) {
    round.clear();
    while (round.size() < workers) {
      auto lease = session.next();
      if (!lease) break;
      round.push_back(std::move(*lease));
    }
    if (round.empty()) break;  // finished: nothing out, nothing to hand out
    ++schedule.rounds;
    for (const auto& lease : round) {
      const agent::RunReport& report = runs.run(lease.request);
      const auto events = coordinator::pointers_to(report.events);
      const auto first = wire::first_event_to_send(report.events, lease.request, report.result);
      session.complete(lease.id, coordinator::EventSpan(events).subspan(first), report.result);
      ++schedule.executions;
    }
  }
  schedule.complete = session.finished();
  schedule.classes = session.progress().stats.classes;
  return schedule;
}

}  // namespace exocheck::bench
