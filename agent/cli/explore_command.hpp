#pragma once
// `exocheck explore`: explores every schedule class of a subject (embedded mode: the session and
// local agent threads in this process), prints the summary and saves every bug's trace.

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "explore_report.hpp"
#include "subject_command.hpp"

namespace exocheck::cli {

class ExploreCommand {
 public:
  /// Declares the subcommand and its options on `parent`.
  explicit ExploreCommand(CLI::App& parent);

  /// True when the command line chose this subcommand.
  bool chosen() const { return app_->parsed(); }

  /// Explores the subject; returns the exit status. Throws InputError for bad input.
  int execute(const SubjectCommand& subject) const;

 private:
  ExploreSettings settings_for(const SubjectCommand& subject) const;

  CLI::App* app_;
  std::string reduction_ = "transdpor";
  bool sleep_sets_ = false;
  bool no_sleep_sets_ = false;
  std::string heuristic_ = "fifo";
  std::size_t workers_;
  std::uint64_t max_paths_ = 0;
  double time_limit_seconds_ = 0;
  bool keep_going_ = false;
  std::string check_;
  double run_timeout_seconds_ = 10;
  std::uint64_t step_limit_ = 100'000;
  std::string out_ = "exocheck-explore";
  bool json_ = false;
  bool no_fork_server_ = false;
  bool no_in_place_ = false;
  bool pin_workers_ = false;
  std::string coordinator_;
};

}  // namespace exocheck::cli
