#include "recorded_run.hpp"

#include "exit_status.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/trace_file.hpp"

namespace exocheck::cli {
namespace {

agent::RunSpec spec_of(const RunSettings& settings) {
  agent::RunSpec spec;
  spec.binary = settings.subject;
  spec.args = settings.args;
  spec.timeout = settings.timeout;
  spec.request.set_protocol_version(wire::kProtocolVersion);
  spec.request.set_heuristic(options::to_hook(settings.heuristic));
  spec.request.set_step_limit(settings.step_limit);
  for (const auto& id : settings.prefix) spec.request.add_prefix(id);
  for (const auto& actor : settings.ranking) spec.request.add_ranking(actor);
  return spec;
}

proto::TraceFile describe(const RunSettings& settings) {
  auto trace = wire::new_trace_file(settings.subject, settings.args, options::name_of(settings.heuristic),
                                    settings.step_limit, settings.ranking);
  for (const auto& id : settings.prefix) trace.add_prefix(id);
  return trace;
}

}  // namespace

proto::TraceFile record_run(const RunSettings& settings) {
  // One run: a fork server would only add its start-up.
  auto report = agent::Runner(agent::RunnerOptions{.fork_server = false}).run(spec_of(settings));
  if (report.result.status() == proto::RUN_LAUNCH_FAILED) {
    throw InputError("cannot run '" + settings.subject + "': " + report.result.detail());
  }
  auto trace = describe(settings);
  for (auto& event : report.events) *trace.add_events() = std::move(event);
  *trace.mutable_result() = std::move(report.result);
  return trace;
}

}  // namespace exocheck::cli
