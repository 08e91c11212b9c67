#include "replay_command.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "bug_needs.hpp"
#include "command_checks.hpp"
#include "exit_status.hpp"
#include "exocheck/agent/replay_check.hpp"
#include "exocheck/agent/timeline.hpp"
#include "exocheck/options/option_flags.hpp"
#include "exocheck/wire/trace_file.hpp"
#include "json_text.hpp"
#include "recorded_run.hpp"
#include "trace_file_input.hpp"
#include "trace_output.hpp"

namespace exocheck::cli {
namespace {

std::string verdict_line(const proto::TraceFile& replay, const std::optional<std::string>& difference, bool recorded) {
  if (difference && recorded) return "Replay: diverged from the recording: " + *difference;
  if (difference) return "Replay: NOT reproduced: " + *difference;
  return "Replay: reproduced " + proto::RunStatus_Name(replay.result().status());
}

void print_json(const proto::TraceFile& replay, const std::optional<std::string>& difference,
                const std::optional<BugNeeds>& needs) {
  nlohmann::ordered_json report;
  report["reproduced"] = !difference.has_value();
  report["difference"] = difference ? nlohmann::ordered_json(*difference) : nlohmann::ordered_json(nullptr);
  if (needs) report["needs"] = {{"conditions", needs->needs}, {"not_checked", needs->unchecked}};
  report["replay"] = nlohmann::ordered_json::parse(trace_as_json(replay));
  std::cout << json_text(report) << "\n";
}

}  // namespace

ReplayCommand::ReplayCommand(CLI::App& parent)
    : app_(parent.add_subcommand("replay", "Re-run the exact schedule of a trace file and check it reproduces")) {
  app_->add_option("TRACE", trace_path_, "The trace file to replay")->required();
  options::add_seconds_option(*app_, options::kRunTime, timeout_seconds_, options::kMostRunSeconds)
      ->capture_default_str();
  options::add_json_flag(*app_, json_, "Print {reproduced, difference, replay trace} as JSON instead of the timeline");
  app_->add_option("-o,--output", output_,
                   "Save the replay's own trace here: every step with its clock and sends (what a recording of a "
                   "free run lacks for the views)");
  app_->add_flag("--needs", needs_,
                 "Once reproduced, a failure's needs too: its faults, timers firing early and deliveries weaker than "
                 "causal, each tried away by replays (as explore's \"needs:\" line)");
  app_->allow_extras();
  app_->footer(
      "Usage: exocheck replay TRACE [OPTIONS] [-- ./subject [ARGS...]]\n"
      "The subject and its arguments default to the ones recorded in the trace. The replay follows every\n"
      "recorded delivery with the recorded heuristic and step limit, and compares event by event.\n"
      "Exit status: 0 a clean run reproduced, 1 a bug reproduced or the replay differed, 2 bad arguments or trace,\n"
      "or a recording of a free run (exocheck record) the program did not follow under control.");
}

int ReplayCommand::execute(const SubjectCommand& subject) const {
  reject_extra_arguments(*app_);
  const auto recorded = load_trace_file(trace_path_);
  const auto settings = settings_to_replay(recorded, subject, timeout_from_seconds(timeout_seconds_), "replay");
  const auto replay = record_run(settings);
  const auto difference = agent::first_difference(recorded, replay);
  std::optional<BugNeeds> needs;
  if (needs_ && !difference && exit_status_of(replay.result()) == kBug)
    needs = needs_of_bug(recorded, coordinator::signature_of(recorded), settings, {});
  if (!output_.empty()) {
    try {
      wire::write_trace_file(output_, replay);
    } catch (const wire::TraceFileError& error) {
      throw InputError(std::string("replay: ") + error.what());
    }
  }
  if (json_) {
    print_json(replay, difference, needs);
  } else {
    std::cout << agent::format_timeline(replay) << "\n"
              << verdict_line(replay, difference, recorded.recorded()) << "\n";
    if (needs) {
      std::cout << needs_text(*needs)
                << (needs->run ? " (steps and ids of a replay that fails the same way without " +
                                     std::to_string(needs->dropped) + " of the trace's)"
                               : std::string())
                << "\n";
    }
    std::cout.flush();
  }
  // A free run's recording the program does not follow under control (it read the clock, a file):
  // the recording cannot be replayed, which says nothing of a bug.
  if (difference && recorded.recorded()) return kInputError;
  return difference ? kBug : exit_status_of(replay.result());
}

}  // namespace exocheck::cli
