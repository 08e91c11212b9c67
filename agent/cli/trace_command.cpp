#include "trace_command.hpp"

#include "command_checks.hpp"
#include "exit_status.hpp"
#include "trace_file_input.hpp"
#include "trace_output.hpp"

namespace exocheck::cli {

TraceCommand::TraceCommand(CLI::App& parent)
    : app_(parent.add_subcommand("trace", "Work with saved trace files")),
      show_(app_->add_subcommand("show", "Print a trace file as a timeline (or JSON)")) {
  app_->require_subcommand(1);
  show_->add_option("TRACE", trace_path_, "The trace file to show")->required();
  show_->add_flag("--json", json_, "Print the trace as JSON instead of the timeline");
  show_->footer("Exit status: 0 shown, 2 bad arguments or a file that is not a readable exocheck trace.");
}

int TraceCommand::execute(const SubjectCommand& subject) const {
  reject_subject(subject, "trace show");
  print_trace(load_trace_file(trace_path_), json_);
  return kNoBug;
}

}  // namespace exocheck::cli
