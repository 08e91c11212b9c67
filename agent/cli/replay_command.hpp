#pragma once
// `exocheck replay`: re-runs the exact schedule of a trace file and checks that the same events
// happen and the same outcome follows.

#include <chrono>
#include <string>

#include <CLI/CLI.hpp>

#include "exocheck/options/bounds.hpp"
#include "subject_command.hpp"

namespace exocheck::cli {

class ReplayCommand {
 public:
  /// Declares the subcommand and its options on `parent`.
  explicit ReplayCommand(CLI::App& parent);

  /// True when the command line chose this subcommand.
  bool chosen() const { return app_->parsed(); }

  /// Replays; returns the exit status. Throws InputError for a bad trace file or arguments.
  int execute(const SubjectCommand& subject) const;

 private:
  CLI::App* app_;
  std::string trace_path_;
  double timeout_seconds_ = std::chrono::duration<double>(options::kDefaultRunTimeout).count();
  bool json_ = false;
  std::string output_;  ///< -o: where the replay's own trace goes ("": nowhere)
  bool needs_ = false;  ///< --needs: what a reproduced failure needs
};

}  // namespace exocheck::cli
