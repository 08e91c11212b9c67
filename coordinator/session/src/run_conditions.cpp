#include "exocheck/coordinator/run_conditions.hpp"

#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/timers.hpp"
#include "exocheck/wire/trace_file.hpp"

namespace exocheck::coordinator {

void to_request(const RunConditions& conditions, std::span<const std::string> prefix,
                const std::vector<std::string>& ranking, proto::RunRequest& request) {
  request.Clear();
  for (const auto& id : prefix) request.add_prefix(id);
  request.set_heuristic(options::to_hook(conditions.heuristic));
  request.set_delivery(options::row_of(options::kDeliveries, conditions.delivery).wire);
  request.set_timers(options::row_of(options::kTimers, conditions.timers).wire);
  request.set_step_limit(conditions.step_limit);
  *request.mutable_faults() = conditions.faults;
  request.set_liveness_bound(conditions.liveness_bound);
  for (const auto& actor : ranking) request.add_ranking(actor);
}

proto::TraceFile new_trace(const std::string& subject, const std::vector<std::string>& args,
                           const RunConditions& conditions, const std::vector<std::string>& ranking) {
  auto trace = wire::new_trace_file(subject, args, options::name_of(conditions.heuristic), conditions.step_limit,
                                    ranking, options::row_of(options::kDeliveries, conditions.delivery).wire,
                                    options::row_of(options::kTimers, conditions.timers).wire);
  *trace.mutable_faults() = conditions.faults;
  trace.set_liveness_bound(conditions.liveness_bound);
  return trace;
}

}  // namespace exocheck::coordinator
