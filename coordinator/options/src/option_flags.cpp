#include "exocheck/options/option_flags.hpp"

#include <map>
#include <string>

#include "exocheck/options/check.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/option_rules.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/sleep_sets.hpp"
#include "exocheck/options/strategy.hpp"
#include "exocheck/options/timers.hpp"

namespace exocheck::options {
namespace {

template <typename Table>
CLI::Option* add_choice_option(CLI::App& app, std::string_view flag, std::string& name, std::string_view lead,
                               const Table& table) {
  return app.add_option(std::string(flag), name, std::string(lead) + " (" + choices_described(table) + ")")
      ->check(CLI::IsMember(names_of(table)));
}

}  // namespace

CLI::Option* add_seconds_option(CLI::App& app, const Bound& bound, double& seconds, double most) {
  constexpr double least = 0.001;  // the milliseconds the settings carry
  // A person types "30s" or "5m" as often as "30"; CLI11's own range message for a bare double
  // would print the largest double instead of saying what is wanted.
  const std::map<std::string, double> units{{"ms", 0.001}, {"s", 1}, {"m", 60}, {"h", 3'600}};
  const auto wanted = "a duration from " + CLI::detail::to_string(least) + " s to " + CLI::detail::to_string(most) +
                      " s: a number of seconds or one with a unit (500ms, 90s, 5m, 1h)";
  CLI::Validator in_range(
      [least, most, wanted](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !(value >= least && value <= most)) {
          return "'" + text + "' is not " + wanted;
        }
        return {};
      },
      "");
  return app.add_option(std::string(bound.flag), seconds, std::string(bound.help) + " (or with a unit: 90s, 5m, 1h)")
      ->transform(CLI::AsNumberWithUnit(units, CLI::AsNumberWithUnit::CASE_SENSITIVE).description(""))
      ->check(in_range)
      ->type_name("SECONDS");
}

CLI::Option* add_reduction_option(CLI::App& app, std::string& name) {
  return add_choice_option(app, kReductionFlag, name, kReductionHelp, kReductions)->capture_default_str();
}

CLI::Option* add_strategy_option(CLI::App& app, std::string& name) {
  return add_choice_option(app, kStrategyFlag, name, kStrategyHelp, kStrategies)->capture_default_str();
}

CLI::Option* add_heuristic_option(CLI::App& app, std::string& name, HeuristicChoices choices, std::string_view lead) {
  std::vector<HeuristicRow> offered;
  for (const auto& row : kHeuristics) {
    if (choices == HeuristicChoices::kAll || applied_by_hook(row)) offered.push_back(row);
  }
  return add_choice_option(app, kHeuristicFlag, name, lead, offered)->capture_default_str();
}

void add_sleep_set_flags(CLI::App& app, bool& on, bool& off) {
  const auto& [on_row, off_row] = kSleepSets;
  auto* on_flag = app.add_flag(std::string(on_row.flag), on, std::string(on_row.help));
  auto* off_flag = app.add_flag(std::string(off_row.flag), off, std::string(off_row.help));
  on_flag->excludes(off_flag);
}

CLI::Option* add_delivery_option(CLI::App& app, std::string& name) {
  if (name.empty()) {
    return app
        .add_option(std::string(kDeliveryFlag), name,
                    std::string(kDeliveryHelp) + " (" + choices_described(kDeliveries) + ")" +
                        std::string(kDeliveryDefaultHelp))
        ->check(CLI::IsMember(names_of(kDeliveries)));
  }
  return add_choice_option(app, kDeliveryFlag, name, kDeliveryHelp, kDeliveries)->capture_default_str();
}

CLI::Option* add_timers_option(CLI::App& app, std::string& name) {
  return add_choice_option(app, kTimersFlag, name, kTimersHelp, kTimers)->capture_default_str();
}

CLI::Option* add_check_option(CLI::App& app, std::vector<std::string>& names) {
  return app
      .add_option(std::string(kCheckFlag), names, std::string(kCheckHelp) + " (" + choices_described(kChecks) + ")")
      ->check(CLI::IsMember(names_of(kChecks)))
      ->delimiter(',')
      ->default_str(std::string(kChecks.front().name));
}

void add_fault_options(CLI::App& app, FaultFlags& flags) {
  const CLI::Range count(0U, kMostFaults);
  const std::string group = "Faults (each a choice explored at every step where it may happen)";
  app.add_option("--crash", flags.crashes,
                 "Each actor may crash up to this many times in a run, after any of its steps, its monitors "
                 "told: it ends (what is pending for it a dead letter), or, if it said restart_as(), comes back "
                 "at once, messages from others waiting for it")
      ->check(count)
      ->group(group)
      ->capture_default_str();
  app.add_option("--lose", flags.losses,
                 "Of each actor's sends to another, up to this many may be lost in flight in a run")
      ->check(count)
      ->group(group)
      ->capture_default_str();
  app.add_option("--duplicate", flags.duplicates,
                 "Of each actor's sends to another, up to this many may be delivered twice in a run")
      ->check(count)
      ->group(group)
      ->capture_default_str();
  app.add_option("--partition", flags.partitions,
                 "Each actor's link to another (or to the other side, with --partition-side) may be cut up to "
                 "this many times in a run, at one of its sends, and heal at a later one: what it sends on a cut "
                 "link is lost")
      ->check(count)
      ->group(group)
      ->capture_default_str();
  app.add_option("--partition-side", flags.partition_side,
                 "The actors on one side of the cut, by id (0,1.2): only links between the sides are cut; "
                 "default: each link on its own")
      ->delimiter(',')
      ->group(group);
  app.add_option("--crash-types", flags.crash_types,
                 "Only actors of these types may crash (as traces name them); default: every actor that did "
                 "not say crashable(false)")
      ->delimiter(',')
      ->group(group);
  app.add_option("--crash-actors", flags.crash_actors,
                 "Only these actors may crash, by id as traces name them (1, 0.2): one of several of a type; an "
                 "actor that said crashable(true) or crashable(false) is as it said")
      ->delimiter(',')
      ->group(group);
  app.add_option("--lossy-types", flags.lossy_types,
                 "Only messages of these types may be lost (a partition's too) or duplicated; default: every type that "
                 "does not "
                 "say lossy = false (Down never is, nor timers, nor main's sends)")
      ->delimiter(',')
      ->group(group);
}

CLI::Option* add_json_flag(CLI::App& app, bool& json, std::string_view help) {
  return app.add_flag("--json", json, std::string(help));
}

CLI::Option* add_no_fork_server_flag(CLI::App& app, bool& no_fork_server) {
  return app.add_flag("--no-fork-server", no_fork_server,
                      "Start the subject anew for every run instead of forking each run from one copy of it started "
                      "once (the fork server, the default; subjects with threads running at System::run() get one "
                      "process per run anyway)");
}

CLI::Option* add_no_in_place_flag(CLI::App& app, bool& no_in_place) {
  return app.add_flag("--no-in-place", no_in_place,
                      "Fork every run from the fork server instead of performing it in the server and putting back "
                      "the memory it wrote (the default where the kernel allows it: Linux 6.7 or later)");
}

}  // namespace exocheck::options
