#include "recorded_run.hpp"

#include "command_checks.hpp"
#include "exit_status.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/timers.hpp"
#include "exocheck/wire/delivery_label.hpp"
#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/trace_file.hpp"

namespace exocheck::cli {
namespace {

agent::RunSpec spec_of(const RunSettings& settings) {
  agent::RunSpec spec;
  spec.binary = settings.subject;
  spec.args = settings.args;
  spec.timeout = settings.timeout;
  coordinator::to_request(settings.conditions, settings.prefix, settings.ranking, spec.request);
  return spec;
}

proto::TraceFile describe(const RunSettings& settings) {
  auto trace = coordinator::new_trace(settings.subject, settings.args, settings.conditions, settings.ranking);
  for (const auto& id : settings.prefix) trace.add_prefix(id);
  return trace;
}

}  // namespace

std::vector<std::string> schedule_of(const proto::TraceFile& recorded) {
  std::vector<std::string> prefix;
  for (const auto& event : recorded.events()) {
    if (event.step() > 0 && !event.message().empty()) prefix.push_back(wire::label_of(event));
  }
  // A run that failed and then diverged keeps its failure's status, and its divergence too.
  if (!recorded.result().divergence_expected().empty()) prefix.push_back(recorded.result().divergence_expected());
  return prefix;
}

RunSettings settings_to_replay(const proto::TraceFile& recorded, const SubjectCommand& subject,
                               std::chrono::milliseconds timeout, const std::string& command) {
  RunSettings settings;
  if (subject.separator_given) {
    require_subject(subject, command);
    settings.subject = subject.words.front();
    settings.args.assign(subject.words.begin() + 1, subject.words.end());
  } else {
    if (recorded.subject().empty()) throw InputError(command + ": the trace names no subject; give one after '--'");
    settings.subject = recorded.subject();
    settings.args.assign(recorded.args().begin(), recorded.args().end());
  }
  const auto heuristic = options::parse_heuristic(recorded.heuristic());
  if (!heuristic) throw InputError(command + ": the trace names an unknown heuristic '" + recorded.heuristic() + "'");
  settings.conditions.heuristic = *heuristic;
  const auto* delivery = options::row_on_wire(options::kDeliveries, recorded.delivery());
  if (delivery == nullptr) {
    throw InputError(command + ": the trace names an unknown delivery order " + std::to_string(recorded.delivery()));
  }
  settings.conditions.delivery = delivery->engine;
  const auto* timers = options::row_on_wire(options::kTimers, recorded.timers());
  if (timers == nullptr) {
    throw InputError(command + ": the trace names unknown timer semantics " + std::to_string(recorded.timers()));
  }
  settings.conditions.timers = timers->engine;
  settings.conditions.faults = recorded.faults();
  settings.conditions.liveness_bound = recorded.liveness_bound();
  settings.prefix = schedule_of(recorded);
  // The prefix goes to the subject in one run request: a run too long for one frame cannot be
  // followed (a free run of seconds can hold millions of deliveries).
  std::size_t bytes = 0;
  for (const auto& id : settings.prefix) bytes += id.size() + 2;
  if (bytes + (1u << 20) > wire::kMaxFrameBytes) {
    throw InputError(command + ": the trace's " + std::to_string(settings.prefix.size()) +
                     " deliveries are more than one run request carries (" +
                     std::to_string(wire::kMaxFrameBytes >> 20) +
                     " MiB): a shorter run is needed (exocheck record --timeout, or a smaller input)");
  }
  settings.conditions.step_limit = recorded.step_limit();
  settings.ranking.assign(recorded.ranking().begin(), recorded.ranking().end());
  settings.timeout = timeout;
  return settings;
}

proto::TraceFile record_run(const RunSettings& settings) {
  // One run: a fork server would only add its start-up.
  agent::Runner runner(agent::RunnerOptions{.fork_server = false});
  return record_run(settings, runner);
}

proto::TraceFile record_run(const RunSettings& settings, agent::Runner& runner) {
  auto report = runner.run(spec_of(settings));
  if (agent::stops_exploration(report.result.status())) {
    throw InputError(refusal_message("", settings.subject, agent::refusal_text(report.result)));
  }
  auto trace = describe(settings);
  for (auto& event : report.events) *trace.add_events() = std::move(event);
  *trace.mutable_result() = std::move(report.result);
  return trace;
}

}  // namespace exocheck::cli
