#pragma once
// `exocheck explore`: explores every schedule class of a subject (embedded mode: the session and
// local agent threads in this process), prints the summary and saves every bug's trace.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "exocheck/link/link_settings.hpp"
#include "exocheck/options/bounds.hpp"
#include "exocheck/options/check.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/option_flags.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/strategy.hpp"
#include "exocheck/options/timers.hpp"
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
  /// --strategy and its flags into `explorer`; throws InputError for flags that do not go together.
  void apply_strategy(engine::ExplorerOptions& explorer) const;
  /// The link to --coordinator, from the link flags; throws InputError for bad files or plaintext
  /// beyond loopback without --insecure.
  link::LinkSettings link_settings() const;

  CLI::App* app_;
  // Defaults are the session's (ExplorationOptions{}), named by the option tables.
  static inline const coordinator::ExplorationOptions kDefaults{};
  std::string reduction_{options::name_of(kDefaults.explorer.reduction)};
  bool sleep_sets_ = false;
  bool no_sleep_sets_ = false;
  std::string heuristic_{options::name_of(kDefaults.explorer.heuristic)};
  std::string delivery_;  ///< "": the front end's (delivery_choice.hpp)
  std::string timers_{options::name_of(kDefaults.explorer.timers)};
  options::FaultFlags faults_;
  std::size_t workers_;
  std::uint64_t max_paths_ = kDefaults.explorer.max_paths;
  std::string strategy_{options::name_of(options::kDefaultStrategy)};
  std::optional<std::uint64_t> seed_;
  std::uint64_t runs_ = 0;
  std::uint32_t pct_depth_ = kDefaults.explorer.pct_depth;
  double time_limit_seconds_ = std::chrono::duration<double>(kDefaults.time_limit).count();
  bool keep_going_ = kDefaults.keep_going;
  std::uint64_t bug_traces_ = kDefaults.bug_traces;
  std::uint64_t max_bugs_ = kDefaults.max_bugs;
  std::vector<std::string> checks_;  ///< none: ExplorationOptions{}'s (none)
  double run_timeout_seconds_ = std::chrono::duration<double>(kDefaults.run_timeout).count();
  std::uint64_t step_limit_ = kDefaults.step_limit;
  std::uint32_t liveness_bound_ = kDefaults.liveness_bound;
  std::uint64_t wakeup_budget_ = kDefaults.explorer.held_wakeup_events;
  std::string junit_;
  bool shrink_ = false;
  bool no_needs_ = false;
  std::string out_ = "exocheck-explore";
  bool json_ = false;
  bool no_fork_server_ = false;
  bool no_in_place_ = false;
  bool pin_workers_ = false;
  std::string coordinator_;
  link::LinkFlags link_;
  std::string from_;  ///< --from TRACE
  std::optional<std::size_t> keep_steps_;
};

}  // namespace exocheck::cli
