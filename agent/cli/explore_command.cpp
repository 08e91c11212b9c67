#include "explore_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <limits>
#include <thread>

#include <fmt/chrono.h>

#include "bug_replays.hpp"
#include "command_checks.hpp"
#include "command_line.hpp"
#include "delivery_choice.hpp"
#include "exit_status.hpp"
#include "exocheck/agent/explore_progress.hpp"
#include "exocheck/metrics/free_memory.hpp"
#include "exocheck/options/check.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/option_flags.hpp"
#include "exocheck/options/option_rules.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/strategy.hpp"
#include "explore_from.hpp"
#include "interruption.hpp"
#include "json_text.hpp"
#include "local_agent.hpp"
#include "recorded_run.hpp"
#include "remote_exploration.hpp"

namespace exocheck::cli {
namespace {

constexpr std::chrono::milliseconds kPollPeriod{50};
constexpr std::chrono::milliseconds kStopPollPeriod{20};

std::size_t default_workers() {
  return std::max(1U, std::thread::hardware_concurrency());
}

// Stops `agent` (its session, and the runs in flight) at the time limit or a signal. A thread of
// its own: the progress line waits for the session's lock, which a result's analysis may hold for
// minutes; stopping takes no lock, and makes that analysis give up.
std::jthread stop_at_the_limit(agent::LocalAgent& agent, std::chrono::milliseconds time_limit) {
  return std::jthread([&agent, time_limit, started = std::chrono::steady_clock::now()](std::stop_token done) {
    while (!done.stop_requested()) {
      if (Interruption::requested() ||
          (time_limit.count() > 0 && std::chrono::steady_clock::now() - started >= time_limit)) {
        agent.stop();
        return;
      }
      std::this_thread::sleep_for(kStopPollPeriod);
    }
  });
}

// Runs the session with local agent threads until it is finished, showing progress.
ExploreOutcome explore_embedded(const ExploreSettings& settings) {
  const auto owned = settings.from ? std::make_unique<coordinator::ExplorationSession>(settings.session, *settings.from)
                                   : std::make_unique<coordinator::ExplorationSession>(settings.session);
  coordinator::ExplorationSession& session = *owned;
  agent::ExploreProgress progress(::isatty(STDERR_FILENO) == 1);
  agent::LocalAgentStats stats;
  {
    agent::LocalAgent agent(session, {.workers = settings.workers,
                                      .fork_server = settings.fork_server,
                                      .pin_workers = settings.pin_workers,
                                      .in_place = settings.in_place});
    const auto stopper = stop_at_the_limit(agent, settings.session.time_limit);
    // Free memory handed back as an agent does: an embedded soak's RSS rose by 28% at one swing in
    // its sixth minute and kept it (tests/bench/results-2026-11-30.md).
    metrics::FreeMemoryRelease free_memory;
    while (!agent.wait_for(kPollPeriod)) {
      free_memory.now_and_then();
      if (progress.due()) {
        auto now = session.progress();
        now.explored_share = session.explored_share();  // a walk of the tree: only when shown
        progress.update(now);
      }
    }
    progress.finish();
    if (const auto error = agent.launch_error()) {
      throw InputError(refusal_message("explore: ", settings.session.subject, *error));
    }
    stats = agent.stats();
  }
  ExploreOutcome outcome;
  outcome.runs = ExploreOutcome::RunModes{stats.runs.forked_runs, stats.runs.in_place_runs, stats.runs.process_runs,
                                          stats.runs.server_starts};
  outcome.verdict = session.verdict();
  outcome.complete = session.explored_completely();
  outcome.progress = session.progress();
  outcome.bugs = session.bugs();
  outcome.warnings = session.warnings();
  outcome.nearest_passing = session.nearest_passing();
  outcome.wall_seconds = progress.elapsed_seconds();
  return outcome;
}

}  // namespace

ExploreCommand::ExploreCommand(CLI::App& parent)
    : app_(parent.add_subcommand("explore", "Explore every schedule class of a subject and report its bugs")),
      workers_(default_workers()) {
  options::add_reduction_option(*app_, reduction_);
  options::add_sleep_set_flags(*app_, sleep_sets_, no_sleep_sets_);
  options::add_heuristic_option(*app_, heuristic_, options::HeuristicChoices::kAll,
                                "Which message to try first at each configuration");
  options::add_delivery_option(*app_, delivery_);
  options::add_timers_option(*app_, timers_);
  options::add_fault_options(*app_, faults_);
  auto* workers = app_->add_option("--workers", workers_, "Runs at a time (local agent threads)")
                      ->check(CLI::Range(1, 1024))
                      ->capture_default_str();
  options::add_bound_option(*app_, options::kMaxPaths, max_paths_)->capture_default_str();
  options::add_seconds_option(*app_, options::kTimeLimit, time_limit_seconds_, options::kMostExplorationSeconds);
  options::add_strategy_option(*app_, strategy_);
  app_->add_option("--seed", seed_,
                   "random, pct and pos: the seed of run 0's schedule, run i's from it; portfolio: its randomized "
                   "members' seeds derive from it (default: from the clock, printed in the report)");
  auto* runs = app_->add_option("--runs", runs_,
                                "random, pct and pos: how many runs (default " +
                                    std::to_string(options::kDefaultSampledRuns) + ", none with --time-limit)")
                   ->check(CLI::PositiveNumber);
  runs->excludes(app_->get_option(std::string(options::kMaxPaths.flag)));
  app_->add_option(std::string(options::kDepthFlag), pct_depth_,
                   "pct: the bug depth d to aim for (d - 1 priority change points per run), from 1 to " +
                       std::to_string(options::kMostPctDepth))
      ->capture_default_str();
  app_->add_flag("--keep-going", keep_going_,
                 "Go on after a bug (default: stop at the first bug). Each distinct bug is reported once, with "
                 "the paths and classes that hit it and its shortest run's trace: runs fail alike when they end "
                 "the same way (assertion, exception, deadlock, crash, ...) in an actor of the same type handling "
                 "a message of the same type with the same check's or exception's text; deadlocks when the same "
                 "actor types wait for replies to the same message types with the same messages pending; crashes "
                 "by their signal");
  options::add_bound_option(*app_, options::kMaxBugs, max_bugs_)->capture_default_str();
  options::add_bound_option(*app_, options::kBugTraces, bug_traces_)
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000}))
      ->capture_default_str();
  options::add_check_option(*app_, checks_);
  options::add_seconds_option(*app_, options::kRunTimeout, run_timeout_seconds_, options::kMostRunSeconds)
      ->capture_default_str();
  options::add_bound_option(*app_, options::kStepLimit, step_limit_)->capture_default_str();
  options::add_bound_option(*app_, options::kLivenessBound, liveness_bound_)->capture_default_str();
  options::add_bound_option(*app_, options::kWakeupBudget, wakeup_budget_)->capture_default_str();
  app_->add_option("--out", out_, "Folder for summary.json and each bug's trace and timeline")->capture_default_str();
  app_->add_option(
      "--from", from_,
      "Explore only the classes that share TRACE's first deliveries (a recorded run's, a bug's): "
      "which other orders after them fail and which pass; its subject, delivery, timers and faults "
      "are the trace's; systematically, whatever the default strategy. The passing run that shares most of "
      "its deliveries is saved (nearest-passing.trace)");
  app_->add_option("--keep-steps", keep_steps_,
                   "With --from: how many of the trace's deliveries to keep (default: all before the failing one)");
  options::add_json_flag(*app_, json_, "Print the summary as JSON instead of the report");
  app_->add_flag("--shrink", shrink_,
                 "Shrink every bug saved: bug-N.shrunk.trace is the shortest schedule that fails the same way "
                 "(within --time-limit, which holds for the whole command)");
  app_->add_flag("--no-needs", no_needs_,
                 "Do not replay each bug's trace to find what it needs (its faults, timers firing early, "
                 "deliveries weaker than causal; within a second past --time-limit): each bug's \"needs:\" line");
  app_->add_option("--junit", junit_,
                   "Also write JUnit XML here: one test case per check, a failure per bug with its replay command");
  auto* coordinator_option =
      app_->add_option("--coordinator", coordinator_, "Submit to a running exocheck-coordinator at ADDR")
          ->excludes(workers);
  for (auto* option :
       link::add_link_flags(*app_, link_, "this client (for a coordinator that requires client certificates)")) {
    option->needs(coordinator_option);
  }
  options::add_no_fork_server_flag(*app_, no_fork_server_)->excludes(coordinator_option);
  options::add_no_in_place_flag(*app_, no_in_place_)->excludes(coordinator_option);
  app_->add_flag("--pin-workers", pin_workers_,
                 "Run each worker, and the subject processes it starts, on a core of its own (faster on an "
                 "otherwise idle machine)")
      ->excludes(coordinator_option);
  app_->allow_extras();
  app_->footer(
      "The subject and its arguments follow '--': exocheck explore [OPTIONS] -- ./subject [ARGS...]\n"
      "Exit status: 0 explored completely, no bug; 1 a bug was found; 2 bad arguments or the subject cannot be\n"
      "launched; 3 stopped by " +
      std::string(options::kMaxPaths.flag) + " or " + std::string(options::kTimeLimit.flag) +
      " before the exploration was complete, or random, pct and pos runs ended without a bug\n"
      "(samples never show that every class was explored).");
}

ExploreSettings ExploreCommand::settings_for(const SubjectCommand& subject) const {
  ExploreSettings settings;
  auto& session = settings.session;
  // The option's check accepted only the tables' names.
  session.explorer.reduction = options::parse_reduction(reduction_).value();
  session.explorer.sleep_sets = !no_sleep_sets_;
  session.explorer.heuristic = options::parse_heuristic(heuristic_).value();
  session.explorer.timers = options::parse_timers(timers_).value();
  session.explorer.max_paths = max_paths_;
  session.explorer.held_wakeup_events =
      wakeup_budget_ == 0 ? std::numeric_limits<std::uint64_t>::max() : wakeup_budget_;
  apply_strategy(session.explorer);
  if (const auto refusal = options::refusal(session.explorer); !refusal.empty()) {
    throw InputError("explore: " + refusal);
  }
  session.faults.set_crashes(faults_.crashes);
  session.faults.set_losses(faults_.losses);
  session.faults.set_duplicates(faults_.duplicates);
  session.faults.set_partitions(faults_.partitions);
  for (const auto& actor : faults_.partition_side) session.faults.add_partition_side(actor);
  for (const auto& type : faults_.crash_types) session.faults.add_crash_types(type);
  for (const auto& actor : faults_.crash_actors) session.faults.add_crash_actors(actor);
  for (const auto& type : faults_.lossy_types) session.faults.add_lossy_types(type);
  if (const auto refusal = options::refusal(session.faults); !refusal.empty()) throw InputError("explore: " + refusal);
  session.step_limit = step_limit_;
  session.liveness_bound = liveness_bound_;
  session.run_timeout = timeout_from_seconds(run_timeout_seconds_);
  // 0 stays 0 (no limit); any other limit is at least a millisecond, as the option's check asks.
  session.time_limit =
      time_limit_seconds_ == 0 ? std::chrono::milliseconds(0) : timeout_from_seconds(time_limit_seconds_);
  session.keep_going = keep_going_ || max_bugs_ > 0;
  session.max_bugs = max_bugs_;
  session.bug_traces = bug_traces_;
  for (const auto& name : checks_) {
    options::add_check(options::row_named(options::kChecks, name), session.explorer.checks);  // the option's check
  }
  if (subject.separator_given) {
    session.subject = subject.words.front();
    session.args.assign(subject.words.begin() + 1, subject.words.end());
  }
  // --from takes the trace's order (explore_from).
  if (from_.empty()) {
    auto delivery = choose_delivery(delivery_, session.subject);
    session.explorer.delivery = delivery.delivery;
    settings.delivery_why = std::move(delivery.why);
  }
  if (keep_steps_ && from_.empty()) throw InputError("explore: --keep-steps goes with --from");
  if (!from_.empty()) {
    const auto from = explore_from(from_, keep_steps_, subject, session);
    if (!coordinator_.empty()) {
      // The job's whole tree is the subtree below the kept deliveries.
      session.root_prefix = from.subtree.prefix;
    }
    settings.from = from.subtree;
    settings.from_trace = from.trace;
    settings.from_text =
        fmt::format("From: {}: the classes that share its first {} deliveries (its failure is delivery {})\n",
                    from.trace, from.kept, from.failure);
  }
  settings.workers = workers_;
  settings.fork_server = !no_fork_server_;
  settings.pin_workers = pin_workers_;
  settings.in_place = !no_in_place_;
  settings.out_dir = out_;
  settings.junit_path = junit_;
  settings.command_line = command_line();
  settings.started_at = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
  return settings;
}

void ExploreCommand::apply_strategy(engine::ExplorerOptions& explorer) const {
  explorer.strategy = options::parse_strategy(strategy_).value();  // the option's check accepted only these
  const auto given = [&](std::string_view flag) { return app_->count(std::string(flag)) > 0; };
  // The classes below a trace's prefix are the systematic exploration's: sampled runs would go
  // through the whole program, and their bugs would not be the prefix's.
  if (!from_.empty()) {
    if (given(options::kStrategyFlag) && explorer.strategy != engine::Strategy::kSystematic) {
      throw InputError(
          "explore: --from explores the classes below a trace's prefix, systematically: it goes "
          "with --strategy systematic only");
    }
    explorer.strategy = engine::Strategy::kSystematic;
  }
  const bool sampled = engine::is_sampled(explorer.strategy);
  const bool portfolio = explorer.strategy == engine::Strategy::kPortfolio;
  if (given("--seed") && !sampled && !portfolio) {
    throw InputError("explore: --seed needs --strategy random, pct, pos or portfolio");
  }
  if (given("--runs") && !sampled) throw InputError("explore: --runs needs --strategy random, pct or pos");
  if (given(options::kDepthFlag) && explorer.strategy != engine::Strategy::kPct) {
    throw InputError("explore: " + std::string(options::kDepthFlag) + " needs --strategy pct");
  }
  // Only optimal DPOR has wakeup trees: a budget for them elsewhere would bound nothing, said or not.
  if (given(options::kWakeupBudget.flag) && (sampled || explorer.reduction != engine::Reduction::kOptimal)) {
    throw InputError("explore: " + std::string(options::kWakeupBudget.flag) +
                     " bounds optimal DPOR's wakeup trees: it needs --reduction optimal and --strategy systematic");
  }
  // A seed from the clock when none is given: the report prints it, so a run can be repeated.
  const auto seed = [&] {
    return seed_.value_or(static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()));
  };
  if (portfolio) explorer.seed = seed();
  if (!sampled) return;
  if (given(options::kMaxPaths.flag)) {
    throw InputError("explore: with --strategy " + strategy_ + " the number of runs is --runs, not " +
                     std::string(options::kMaxPaths.flag));
  }
  explorer.max_paths = runs_ != 0 ? runs_ : (time_limit_seconds_ > 0 ? 0 : options::kDefaultSampledRuns);
  explorer.seed = seed();
  explorer.pct_depth = pct_depth_;
}

link::LinkSettings ExploreCommand::link_settings() const {
  try {
    auto settings = link::read_link_settings(link_);
    if (auto refusal = link::plaintext_refusal(settings, coordinator_, "connecting to"); !refusal.empty()) {
      throw InputError("explore: " + refusal);
    }
    return settings;
  } catch (const std::invalid_argument& error) {
    throw InputError(std::string("explore: ") + error.what());
  }
}

int ExploreCommand::execute(const SubjectCommand& subject) const {
  reject_extra_arguments(*app_);
  if (from_.empty()) require_subject(subject, "explore");
  if (out_.empty()) throw InputError("explore: --out needs a folder name");
  const auto settings = settings_for(subject);
  const auto started = std::chrono::steady_clock::now();
  const Interruption interruption;
  auto outcome =
      coordinator_.empty() ? explore_embedded(settings) : explore_remotely(settings, coordinator_, link_settings());
  outcome.sampled = engine::is_sampled(settings.session.explorer.strategy);
  outcome.portfolio = settings.session.explorer.strategy == engine::Strategy::kPortfolio;
  if (Interruption::requested()) outcome.warnings.push_back("interrupted: stopped before the end (Ctrl-C)");
  const auto cut = outcome.progress.stats.step_limited;
  if (cut != 0 && !settings.session.explorer.checks.termination) {
    outcome.warnings.push_back(
        fmt::format("{} {} cut at the step limit of {} ({}): what they would have done next is not explored, so the "
                    "exploration is bounded; --check termination reports such runs as bugs (livelocks)",
                    cut, cut == 1 ? "run was" : "runs were", settings.session.step_limit, options::kStepLimit.flag));
  }
  if (const auto cut = outcome.progress.stats.cut_for_memory; cut != 0) {
    outcome.warnings.push_back(fmt::format(
        "the wakeup trees held their budget ({} events, {}), so the sequences of {} {} were cut short: some "
        "orders after their races are not explored, so the exploration is bounded",
        settings.session.explorer.held_wakeup_events, options::kWakeupBudget.flag, cut, cut == 1 ? "run" : "runs"));
  }
  if (const auto part = outcome.progress.stats.analysed_in_part; part != 0) {
    outcome.warnings.push_back(fmt::format(
        "{} {} so long that {} races were analysed in part (more than {} steps read, or a race's sequence longer "
        "than {} events): some orders after them are not explored, so the exploration is bounded",
        part, part == 1 ? "run was" : "runs were", part == 1 ? "its" : "their",
        settings.session.explorer.analysis_reads, settings.session.explorer.longest_sequence));
  }
  const auto& faults = settings.session.faults;
  const bool budget =
      faults.crashes() != 0 || faults.losses() != 0 || faults.duplicates() != 0 || faults.partitions() != 0;
  if (budget && outcome.progress.stats.paths != 0 && outcome.progress.stats.faulted == 0) {
    // A name that matches nothing (a typo in --crash-types) would pass for a program that
    // survives every fault.
    outcome.warnings.push_back(
        "no run had a fault injected, though a fault budget was given: what was explored is the program without "
        "faults; check that --crash-types, --crash-actors and --lossy-types name actors and message types as this "
        "program's traces do");
  }
  if (shrink_) shrink_bugs(settings, outcome, started);
  if (!no_needs_) find_bug_needs(settings, outcome, started);
  write_out_dir(settings.out_dir, settings, outcome);
  if (json_) {
    std::cout << json_text(summary_json(settings, outcome)) << "\n";
  } else {
    std::cout << summary_text(settings, outcome);
  }
  std::cout.flush();
  return endings::row_of(outcome.verdict).exit_status;
}

}  // namespace exocheck::cli
