#include "run_command.hpp"

#include <spdlog/spdlog.h>

#include "command_checks.hpp"
#include "delivery_choice.hpp"
#include "exit_status.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/option_flags.hpp"
#include "exocheck/wire/trace_file.hpp"
#include "recorded_run.hpp"
#include "schedule_prefix.hpp"
#include "trace_output.hpp"

namespace exocheck::cli {

RunCommand::RunCommand(CLI::App& parent)
    : app_(parent.add_subcommand("run", "Run a subject once under control, print its timeline, save its trace")) {
  app_->add_option("--prefix", prefix_, "Message ids to deliver first, comma-separated (e.g. env#1,0#2)");
  options::add_heuristic_option(*app_, heuristic_, options::HeuristicChoices::kAppliedByHook,
                                "How to choose after the prefix");
  options::add_delivery_option(*app_, delivery_);
  options::add_timers_option(*app_, timers_);
  options::add_bound_option(*app_, options::kStepLimit, step_limit_)->capture_default_str();
  options::add_bound_option(*app_, options::kLivenessBound, liveness_bound_)->capture_default_str();
  options::add_seconds_option(*app_, options::kRunTime, timeout_seconds_, options::kMostRunSeconds)
      ->capture_default_str();
  app_->add_option("--out", out_, "Where to save the trace")->capture_default_str();
  options::add_json_flag(*app_, json_, "Print the trace as JSON instead of the timeline");
  app_->allow_extras();
  app_->footer(
      "The subject and its arguments follow '--': exocheck run [OPTIONS] -- ./subject [ARGS...]\n"
      "Exit status: 0 the run completed, 1 it ended in a bug, 2 bad arguments or the subject cannot be launched,\n"
      "3 it was cut at the step limit.");
}

int RunCommand::execute(const SubjectCommand& subject) const {
  reject_extra_arguments(*app_);
  require_subject(subject, "run");
  RunSettings settings;
  settings.subject = subject.words.front();
  settings.args.assign(subject.words.begin() + 1, subject.words.end());
  settings.prefix = parse_prefix(prefix_);
  // The option accepts only the table's names.
  settings.conditions.heuristic = options::parse_heuristic(heuristic_).value();
  settings.conditions.delivery = choose_delivery(delivery_, settings.subject).delivery;
  settings.conditions.timers = options::parse_timers(timers_).value();
  settings.conditions.step_limit = step_limit_;
  settings.conditions.liveness_bound = liveness_bound_;
  settings.timeout = timeout_from_seconds(timeout_seconds_);

  const auto trace = record_run(settings);
  print_trace(trace, json_);
  try {
    wire::write_trace_file(out_, trace);
  } catch (const wire::TraceFileError& error) {
    throw InputError(error.what());
  }
  spdlog::info("trace saved to {}", out_);
  return exit_status_of(trace.result());
}

}  // namespace exocheck::cli
