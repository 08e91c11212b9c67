#pragma once
// `exocheck trace show|view|export|diff`: a saved trace as a timeline or JSON, as an HTML
// space-time diagram, in another viewer's format (ShiViz, Chrome trace events, Graphviz dot), or
// against another trace.

#include <string>

#include <CLI/CLI.hpp>

#include "subject_command.hpp"

namespace exocheck::cli {

class TraceCommand {
 public:
  /// Declares `trace` and its subcommands on `parent`.
  explicit TraceCommand(CLI::App& parent);

  /// True when the command line chose this subcommand.
  bool chosen() const { return app_->parsed(); }

  /// Runs the chosen subcommand; returns the exit status. Throws InputError for a bad trace file
  /// or an output file that cannot be written.
  int execute(const SubjectCommand& subject) const;

 private:
  int view() const;
  int export_trace() const;
  int diff() const;

  CLI::App* app_;
  CLI::App* show_;
  CLI::App* view_;
  CLI::App* export_;
  CLI::App* diff_;
  std::string other_path_;
  std::string trace_path_;
  std::string output_path_;
  std::string format_;
  bool json_ = false;
};

}  // namespace exocheck::cli
