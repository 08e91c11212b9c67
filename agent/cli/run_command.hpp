#pragma once
// `exocheck run`: one controlled execution of a subject; prints the timeline and saves the trace.

#include <chrono>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "exocheck/options/bounds.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/timers.hpp"
#include "recorded_run.hpp"
#include "subject_command.hpp"

namespace exocheck::cli {

class RunCommand {
 public:
  /// Declares the subcommand and its options on `parent`.
  explicit RunCommand(CLI::App& parent);

  /// True when the command line chose this subcommand.
  bool chosen() const { return app_->parsed(); }

  /// Runs the subject; returns the exit status. Throws InputError for bad input.
  int execute(const SubjectCommand& subject) const;

 private:
  CLI::App* app_;
  std::string prefix_;
  // Defaults are a run's (RunSettings{}), named by the option tables.
  static inline const RunSettings kDefaults{};
  std::string heuristic_{options::name_of(kDefaults.conditions.heuristic)};
  std::string delivery_;  ///< "": the front end's (delivery_choice.hpp)
  std::string timers_{options::name_of(kDefaults.conditions.timers)};
  std::uint64_t step_limit_ = kDefaults.conditions.step_limit;
  std::uint32_t liveness_bound_ = kDefaults.conditions.liveness_bound;
  double timeout_seconds_ = std::chrono::duration<double>(kDefaults.timeout).count();
  std::string out_ = "exocheck-run.trace";
  bool json_ = false;
};

}  // namespace exocheck::cli
