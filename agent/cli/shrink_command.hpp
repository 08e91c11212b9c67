#pragma once
// `exocheck shrink TRACE`: the shortest schedule that still fails the same way, found by replaying
// shorter ones (exocheck/agent/schedule_shrinker.hpp), written as a trace of its own.

#include <string>

#include <CLI/CLI.hpp>

#include "subject_command.hpp"

namespace exocheck::cli {

class ShrinkCommand {
 public:
  explicit ShrinkCommand(CLI::App& parent);

  bool chosen() const { return app_->parsed(); }

  /// Shrinks; returns the exit status. Throws InputError for a bad or passing trace.
  int execute(const SubjectCommand& subject) const;

 private:
  CLI::App* app_;
  std::string trace_path_;
  std::string output_path_;
  double timeout_seconds_;
  bool json_ = false;
};

}  // namespace exocheck::cli
