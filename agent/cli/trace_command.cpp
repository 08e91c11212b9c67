#include "trace_command.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

#include <spdlog/spdlog.h>

#include "command_checks.hpp"
#include "exit_status.hpp"
#include "exocheck/agent/replay_check.hpp"
#include "exocheck/agent/trace_diff.hpp"
#include "exocheck/agent/trace_pictures.hpp"
#include "exocheck/options/bounds.hpp"
#include "exocheck/options/option_flags.hpp"
#include "json_text.hpp"
#include "recorded_run.hpp"
#include "trace_file_input.hpp"
#include "trace_output.hpp"

namespace exocheck::cli {
namespace {

constexpr const char* kTraceFooter =
    "Exit status: 0 done, 2 bad arguments, a file that is not a readable exocheck trace, or an output that cannot be "
    "written.";

/// Writes `text` to `path`, or to stdout when `path` is empty or "-".
void write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::cout << text;
    std::cout.flush();
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw InputError("cannot write " + path);
}

}  // namespace

TraceCommand::TraceCommand(CLI::App& parent)
    : app_(parent.add_subcommand("trace", "Work with saved trace files")),
      show_(app_->add_subcommand("show", "Print a trace file as a timeline (or JSON)")),
      view_(app_->add_subcommand("view", "Write a trace as an HTML space-time diagram (one self-contained file)")),
      export_(app_->add_subcommand("export", "Write a trace in another viewer's format")),
      diff_(app_->add_subcommand("diff", "Where two traces of one program part, and what differs after")) {
  app_->require_subcommand(1);
  show_->add_option("TRACE", trace_path_, "The trace file to show")->required();
  options::add_json_flag(*show_, json_, "Print the trace as JSON instead of the timeline");
  show_->footer(kTraceFooter);

  view_->add_option("TRACE", trace_path_, "The trace file to draw")->required();
  view_->add_option("-o,--output", output_path_, "The HTML file to write (default: the trace's name with .html)");
  view_->footer(std::string("One lane per actor, a box per delivery (hover: its vector clock), an arrow from each send "
                            "to its delivery, the failing step marked; zoom with + and -, fold a lane by clicking "
                            "its name. No network needed. A recording of a free run (exocheck record) is replayed "
                            "under control, and its replay drawn.\n") +
                kTraceFooter);

  export_->add_option("TRACE", trace_path_, "The trace file to export")->required();
  export_
      ->add_option("--format", format_,
                   "shiviz: ShiViz's log (its parsing regex goes to stderr); chrome: Chrome "
                   "trace-event JSON, which Perfetto opens; dot: Graphviz")
      ->required()
      ->check(CLI::IsMember({"shiviz", "chrome", "dot"}));
  export_->add_option("-o,--output", output_path_, "Write here instead of stdout");
  export_->footer(kTraceFooter);

  diff_->add_option("A", trace_path_, "The first trace (a failing one, say)")->required();
  diff_->add_option("B", other_path_, "The second trace (the reference, or a passing one)")->required();
  options::add_json_flag(*diff_, json_, "Print the difference as JSON");
  diff_->footer("Exit status: 0 the same schedule and result, 1 they differ, 2 bad arguments or an unreadable trace.");
}

namespace {

/// A trace the pictures can draw. A recording of a free run has no clocks or sends to draw them
/// from: it is replayed under control (its subject must be there to run), and its replay drawn.
proto::TraceFile drawable_trace(const std::string& path, const std::string& command) {
  auto trace = load_trace_file(path);
  if (!trace.recorded()) return trace;
  const auto cannot = [&](const std::string& why) {
    return InputError(command + ": " + path + " was recorded from a free run, whose steps have no clocks or sends " +
                      "to draw; its replay, drawn instead, " + why);
  };
  proto::TraceFile replay;
  try {
    replay = record_run(settings_to_replay(trace, SubjectCommand{}, options::kDefaultRunTimeout, command));
  } catch (const InputError& error) {
    throw cannot(std::string("could not run: ") + error.what());
  }
  if (const auto difference = agent::first_difference(trace, replay)) {
    throw cannot("diverged from the recording: " + *difference);
  }
  spdlog::info("{}: {} is a recording of a free run: drawn from its replay under control", command, path);
  return replay;
}

}  // namespace

int TraceCommand::diff() const {
  const auto a = load_trace_file(trace_path_);
  const auto b = load_trace_file(other_path_);
  const auto difference = agent::diff_traces(a, b);
  if (json_) {
    std::cout << json_text(agent::difference_json(a, b, difference)) << "\n";
  } else {
    std::cout << agent::format_difference(a, b, difference);
  }
  std::cout.flush();
  return !difference.parted_at && difference.same_result ? kNoBug : kBug;
}

int TraceCommand::view() const {
  const auto trace = drawable_trace(trace_path_, "trace view");
  const std::string output =
      output_path_.empty() ? std::filesystem::path(trace_path_).replace_extension(".html").string() : output_path_;
  write_output(output, agent::space_time_html(trace));
  if (output != "-") spdlog::info("wrote {} ({} steps)", output, trace.events_size() > 0 ? trace.events_size() - 1 : 0);
  return kNoBug;
}

int TraceCommand::export_trace() const {
  const auto trace = drawable_trace(trace_path_, "trace export");
  if (format_ == "shiviz") {
    write_output(output_path_, agent::shiviz_log(trace));
    spdlog::info("ShiViz: paste the log; its parsing regular expression is {}", agent::kShivizRegex);
  } else if (format_ == "chrome") {
    write_output(output_path_, agent::chrome_trace_json(trace));
  } else {
    write_output(output_path_, agent::graphviz_dot(trace));
  }
  return kNoBug;
}

int TraceCommand::execute(const SubjectCommand& subject) const {
  if (view_->parsed()) {
    reject_subject(subject, "trace view");
    return view();
  }
  if (export_->parsed()) {
    reject_subject(subject, "trace export");
    return export_trace();
  }
  if (diff_->parsed()) {
    reject_subject(subject, "trace diff");
    return diff();
  }
  reject_subject(subject, "trace show");
  print_trace(load_trace_file(trace_path_), json_);
  return kNoBug;
}

}  // namespace exocheck::cli
