#pragma once
// `exocheck trace show`: prints a saved trace as a timeline or as JSON.

#include <string>

#include <CLI/CLI.hpp>

#include "subject_command.hpp"

namespace exocheck::cli {

class TraceCommand {
 public:
  /// Declares `trace` and its subcommand `show` on `parent`.
  explicit TraceCommand(CLI::App& parent);

  /// True when the command line chose this subcommand.
  bool chosen() const { return app_->parsed(); }

  /// Shows the trace; returns the exit status. Throws InputError for a bad trace file.
  int execute(const SubjectCommand& subject) const;

 private:
  CLI::App* app_;
  CLI::App* show_;
  std::string trace_path_;
  bool json_ = false;
};

}  // namespace exocheck::cli
