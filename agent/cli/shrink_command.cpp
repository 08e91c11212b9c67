#include "shrink_command.hpp"

#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_checks.hpp"
#include "exit_status.hpp"
#include "exocheck/agent/timeline.hpp"
#include "exocheck/options/option_flags.hpp"
#include "exocheck/wire/trace_file.hpp"
#include "json_text.hpp"
#include "recorded_run.hpp"
#include "trace_file_input.hpp"
#include "trace_shrinking.hpp"

namespace exocheck::cli {
namespace {

std::size_t steps_of(const proto::TraceFile& trace) {
  return trace.events_size() > 0 ? static_cast<std::size_t>(trace.events_size() - 1) : 0;
}

}  // namespace

ShrinkCommand::ShrinkCommand(CLI::App& parent)
    : app_(parent.add_subcommand("shrink", "Find the shortest schedule that fails as a trace's does")),
      timeout_seconds_(std::chrono::duration<double>(options::kDefaultRunTimeout).count()) {
  app_->add_option("TRACE", trace_path_, "The failing trace to shrink")->required();
  app_->add_option("-o,--output", output_path_,
                   "Where to write the shrunk trace (default: TRACE's name with .shrunk.trace)");
  options::add_seconds_option(*app_, options::kRunTimeout, timeout_seconds_, options::kMostRunSeconds)
      ->capture_default_str();
  options::add_json_flag(*app_, json_, "Print {steps_before, steps_after, runs, output} as JSON");
  app_->allow_extras();
  app_->footer(
      "Usage: exocheck shrink TRACE [OPTIONS] [-- ./subject [ARGS...]]\n"
      "Keeps the deliveries the failing step depends on (its causal past), then removes what else it can by\n"
      "delta debugging, replaying each shorter schedule: the result fails the same way (status, failing\n"
      "actor, message type and check) and no single delivery can go. The subject defaults to the trace's.\n"
      "Exit status: 1 shrunk (the trace still fails), 2 bad arguments, a passing or unreadable trace, or a\n"
      "trace that does not fail the same way when replayed.");
}

int ShrinkCommand::execute(const SubjectCommand& subject) const {
  reject_extra_arguments(*app_);
  const auto original = load_trace_file(trace_path_);
  if (original.result().status() == proto::RUN_COMPLETED) {
    throw InputError("shrink: " + trace_path_ + " completed without a bug: nothing to shrink");
  }
  ShrunkTrace shrunk;
  try {
    shrunk = shrink_failing_trace(
        original, settings_to_replay(original, subject, timeout_from_seconds(timeout_seconds_), "shrink"));
  } catch (const InputError& error) {
    throw InputError("shrink: " + trace_path_ + ": " + error.what());
  }
  // A shorter schedule may run longer after it (a liveness bug is judged where the run ends): the
  // original is then the shortest failing run found.
  if (steps_of(shrunk.trace) > steps_of(original)) shrunk.trace = original;
  const std::string output = output_path_.empty()
                                 ? std::filesystem::path(trace_path_).replace_extension(".shrunk.trace").string()
                                 : output_path_;
  wire::write_trace_file(output, shrunk.trace);
  const std::size_t before = steps_of(original), after = steps_of(shrunk.trace);
  if (json_) {
    nlohmann::ordered_json report{{"steps_before", before},
                                  {"steps_after", after},
                                  {"removed", before - after},
                                  {"runs", shrunk.runs},
                                  {"status", proto::RunStatus_Name(shrunk.trace.result().status())},
                                  {"output", output}};
    std::cout << json_text(report) << "\n";
  } else {
    std::cout << agent::format_timeline(shrunk.trace) << "\n"
              << fmt::format("Shrink: {} steps -> {} ({} removed, {} replays), fails the same way: {}\n", before, after,
                             before - after, shrunk.runs, agent::status_in_words(shrunk.trace.result().status()))
              << "Shrunk trace: " << output << "\n";
  }
  std::cout.flush();
  return kBug;
}

}  // namespace exocheck::cli
