#pragma once
// `exocheck record`: runs a program freely (its own runtime, its threads, real time) with the
// hook's recording on, and writes a trace of the run when it fails (or always), which `replay`
// follows under control (DESIGN.md, "Recorded runs").

#include <string>

#include <CLI/CLI.hpp>

#include "subject_command.hpp"

namespace exocheck::cli {

class RecordCommand {
 public:
  explicit RecordCommand(CLI::App& parent);
  bool chosen() const { return app_->parsed(); }
  /// Runs and records; returns the exit status (1 when the run failed). Throws InputError.
  int execute(const SubjectCommand& subject) const;

 private:
  CLI::App* app_;
  std::string out_ = "exocheck-record";
  std::string junit_;  ///< where the run goes as JUnit XML; empty: nowhere
  std::string from_;   ///< a log a program wrote under EXOCHECK_RECORD, made into a trace
  bool always_ = false;
  double timeout_ = 0;  ///< seconds before a run that has not ended is stopped (SIGTERM); 0: none
  bool json_ = false;
};

}  // namespace exocheck::cli
