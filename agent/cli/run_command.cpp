#include "run_command.hpp"

#include <spdlog/spdlog.h>

#include "command_checks.hpp"
#include "exit_status.hpp"
#include "exocheck/wire/trace_file.hpp"
#include "heuristic_names.hpp"
#include "recorded_run.hpp"
#include "schedule_prefix.hpp"
#include "trace_output.hpp"

namespace exocheck::cli {

RunCommand::RunCommand(CLI::App& parent)
    : app_(parent.add_subcommand("run", "Run a subject once under control, print its timeline, save its trace")) {
  app_->add_option("--prefix", prefix_, "Message ids to deliver first, comma-separated (e.g. env#1,0#2)");
  app_->add_option("--heuristic", heuristic_, "How to choose after the prefix")
      ->check(CLI::IsMember(selectable_heuristic_names()))
      ->capture_default_str();
  app_->add_option("--step-limit", step_limit_, "Most macro-steps after the initial one; 0 = no limit")
      ->check(CLI::NonNegativeNumber)  // without it CLI11 wraps "-3" around to a huge unsigned limit
      ->capture_default_str();
  app_->add_option("--timeout", timeout_seconds_, "Wall-clock limit for the run, in seconds")
      ->check(timeout_range())
      ->capture_default_str();
  app_->add_option("--out", out_, "Where to save the trace")->capture_default_str();
  app_->add_flag("--json", json_, "Print the trace as JSON instead of the timeline");
  app_->allow_extras();
  app_->footer(
      "The subject and its arguments follow '--': exocheck run [OPTIONS] -- ./subject [ARGS...]\n"
      "Exit status: 0 the run completed, 1 it ended in a bug, 2 bad arguments or the subject cannot be launched.");
}

int RunCommand::execute(const SubjectCommand& subject) const {
  reject_extra_arguments(*app_);
  require_subject(subject, "run");
  RunSettings settings;
  settings.subject = subject.words.front();
  settings.args.assign(subject.words.begin() + 1, subject.words.end());
  settings.prefix = parse_prefix(prefix_);
  settings.heuristic_name = heuristic_;
  settings.heuristic = heuristic_from_name(heuristic_).value();  // IsMember accepted only known names
  settings.step_limit = step_limit_;
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
