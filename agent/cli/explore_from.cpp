#include "explore_from.hpp"

#include "exit_status.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/timers.hpp"
#include "recorded_run.hpp"
#include "trace_file_input.hpp"

namespace exocheck::cli {
namespace {

/// The delivery (1-based) the trace's failure is about: its first failed step, else its last.
std::size_t failing_delivery(const proto::TraceFile& trace, std::size_t deliveries) {
  std::size_t index = 0;
  for (const auto& event : trace.events()) {
    if (event.step() == 0 || event.message().empty()) continue;
    ++index;
    if (event.outcome() != proto::STEP_OK) return index;
  }
  return deliveries;
}

}  // namespace

ExploreFrom explore_from(const std::string& path, std::optional<std::size_t> keep_steps, const SubjectCommand& subject,
                         coordinator::ExplorationOptions& session) {
  const auto trace = load_trace_file(path);
  if (!subject.separator_given) {
    if (trace.subject().empty()) throw InputError("explore: " + path + " names no subject; give one after '--'");
    session.subject = trace.subject();
    session.args.assign(trace.args().begin(), trace.args().end());
  }
  const auto* delivery = options::row_on_wire(options::kDeliveries, trace.delivery());
  const auto* timers = options::row_on_wire(options::kTimers, trace.timers());
  if (delivery == nullptr || timers == nullptr) {
    throw InputError("explore: " + path + " names a delivery order or timer semantics this build does not know");
  }
  // The trace's schedule means what it meant under its own semantics only.
  session.explorer.delivery = delivery->engine;
  session.explorer.timers = timers->engine;
  session.faults = trace.faults();
  session.liveness_bound = trace.liveness_bound();
  const auto schedule = schedule_of(trace);
  ExploreFrom from;
  from.trace = path;
  from.failure = failing_delivery(trace, schedule.size());
  from.kept = keep_steps.value_or(from.failure == 0 ? 0 : from.failure - 1);
  if (from.kept > schedule.size()) {
    throw InputError("explore: --keep-steps " + std::to_string(from.kept) + " is more than the " +
                     std::to_string(schedule.size()) + " deliveries of " + path);
  }
  from.subtree.prefix.assign(schedule.begin(), schedule.begin() + static_cast<std::ptrdiff_t>(from.kept));
  // The passing run nearest the failure is the one that shares most of its deliveries.
  if (!schedule.empty()) session.nearest_to = schedule;
  return from;
}

}  // namespace exocheck::cli
