#include "recorded_run.hpp"

#include "exit_status.hpp"
#include "exocheck/agent/runner.hpp"
#include "exocheck/wire/frame.hpp"
#include "exocheck/wire/trace_file.hpp"
#include "exocheck/wire/utf8.hpp"

namespace exocheck::cli {
namespace {

agent::RunSpec spec_of(const RunSettings& settings) {
  agent::RunSpec spec;
  spec.binary = settings.subject;
  spec.args = settings.args;
  spec.timeout = settings.timeout;
  spec.request.set_protocol_version(wire::kProtocolVersion);
  spec.request.set_heuristic(settings.heuristic);
  spec.request.set_step_limit(settings.step_limit);
  for (const auto& id : settings.prefix) spec.request.add_prefix(id);
  for (const auto& actor : settings.ranking) spec.request.add_ranking(actor);
  return spec;
}

proto::TraceFile describe(const RunSettings& settings) {
  proto::TraceFile trace;
  trace.set_format_version(wire::kTraceFormatVersion);
  trace.set_tool_version(EXOCHECK_VERSION);
  trace.set_protocol_version(wire::kProtocolVersion);
  // A trace's fields are UTF-8; a path or argument need not be (replay then cannot find it).
  trace.set_subject(wire::valid_utf8(settings.subject));
  for (const auto& arg : settings.args) trace.add_args(wire::valid_utf8(arg));
  for (const auto& id : settings.prefix) trace.add_prefix(id);
  trace.set_heuristic(settings.heuristic_name);
  trace.set_step_limit(settings.step_limit);
  for (const auto& actor : settings.ranking) trace.add_ranking(actor);
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
