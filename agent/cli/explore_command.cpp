#include "explore_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include "command_checks.hpp"
#include "exit_status.hpp"
#include "explore_progress.hpp"
#include "interruption.hpp"
#include "json_text.hpp"
#include "local_agent.hpp"
#include "remote_exploration.hpp"

namespace exocheck::cli {
namespace {

/// Exit status 3 of DESIGN.md: a limit stopped the exploration before it was complete, no bug.

constexpr std::chrono::milliseconds kPollPeriod{50};

std::size_t default_workers() {
  return std::max(1U, std::thread::hardware_concurrency());
}

int exit_status_of(coordinator::Verdict verdict) {
  switch (verdict) {
    case coordinator::Verdict::kCompleteNoBug:
      return kNoBug;
    case coordinator::Verdict::kBugFound:
      return kBug;
    default:
      return kStoppedByLimit;
  }
}

engine::Heuristic heuristic_named(const std::string& name) {
  return engine::parse_heuristic(name).value();  // IsMember accepted only known names
}

// Runs the session with local agent threads until it is finished, showing progress.
ExploreOutcome explore_embedded(const ExploreSettings& settings) {
  coordinator::ExplorationSession session(settings.session);
  ExploreProgress progress(::isatty(STDERR_FILENO) == 1);
  agent::LocalAgentStats stats;
  {
    agent::LocalAgent agent(session, {settings.workers, timeout_from_seconds(settings.run_timeout_seconds),
                                      settings.fork_server, settings.pin_workers, settings.in_place});
    while (!agent.wait_for(kPollPeriod)) {
      progress.update(session.progress());
      if (Interruption::requested()) session.stop();
      if (settings.time_limit_seconds > 0 && progress.elapsed_seconds() >= settings.time_limit_seconds) {
        session.stop();
      }
    }
    progress.finish();
    if (const auto error = agent.launch_error()) {
      throw InputError("explore: cannot run '" + settings.session.subject + "': " + *error);
    }
    stats = agent.stats();
  }
  ExploreOutcome outcome;
  outcome.runs = ExploreOutcome::RunModes{stats.runs.forked_runs, stats.runs.in_place_runs, stats.runs.process_runs,
                                          stats.runs.server_starts};
  outcome.verdict = session.verdict();
  outcome.progress = session.progress();
  outcome.bugs = session.bugs();
  outcome.warnings = session.warnings();
  outcome.wall_seconds = progress.elapsed_seconds();
  return outcome;
}

}  // namespace

ExploreCommand::ExploreCommand(CLI::App& parent)
    : app_(parent.add_subcommand("explore", "Explore every schedule class of a subject and report its bugs")),
      workers_(default_workers()) {
  app_->add_option("--reduction", reduction_, "How to prune equivalent schedules")
      ->check(CLI::IsMember({"exhaustive", "dpor", "transdpor"}))
      ->capture_default_str();
  auto* sleep = app_->add_flag("--sleep-sets", sleep_sets_, "Use sleep sets (the default)");
  auto* no_sleep = app_->add_flag("--no-sleep-sets", no_sleep_sets_, "Do not use sleep sets");
  sleep->excludes(no_sleep);
  app_->add_option("--heuristic", heuristic_, "Which message to try first at each configuration")
      ->check(CLI::IsMember({"fifo", "lifo", "eca", "lca", "ldm", "hdm", "hms", "sgr"}))
      ->capture_default_str();
  auto* workers = app_->add_option("--workers", workers_, "Runs at a time (local agent threads)")
                      ->check(CLI::Range(1, 1024))
                      ->capture_default_str();
  app_->add_option("--max-paths", max_paths_, "Stop after this many paths; 0 = no limit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app_->add_option("--time-limit", time_limit_seconds_, "Stop handing out runs after this many seconds")
      ->check(CLI::PositiveNumber);
  app_->add_flag("--keep-going", keep_going_, "Go on after a bug (default: stop at the first bug)");
  app_->add_option("--check", check_,
                   "Also check a property of whole paths. determinism: every completed path must end in the same "
                   "final state (the actors' final_state summaries); each other final state is a bug, reported with "
                   "the trace of the first completed path. Results are then sent whole, which costs speed")
      ->check(CLI::IsMember({"determinism"}));
  app_->add_option("--run-timeout", run_timeout_seconds_, "Wall-clock limit for each run, in seconds")
      ->check(timeout_range())
      ->capture_default_str();
  app_->add_option("--step-limit", step_limit_, "Most macro-steps per run after the initial one; 0 = no limit")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  app_->add_option("--out", out_, "Folder for summary.json and each bug's trace and timeline")->capture_default_str();
  app_->add_flag("--json", json_, "Print the summary as JSON instead of the report");
  auto* coordinator_option =
      app_->add_option("--coordinator", coordinator_, "Submit to a running exocheck-coordinator at ADDR")
          ->excludes(workers);
  app_->add_flag("--no-fork-server", no_fork_server_,
                 "Start the subject anew for every run instead of forking each run from one copy of it started "
                 "once (the fork server, the default; subjects with threads running at System::run() get one "
                 "process per run anyway)")
      ->excludes(coordinator_option);
  app_->add_flag("--no-in-place", no_in_place_,
                 "Fork every run from the fork server instead of performing it in the server and putting back "
                 "the memory it wrote (the default where the kernel allows it: Linux 6.7 or later)")
      ->excludes(coordinator_option);
  app_->add_flag("--pin-workers", pin_workers_,
                 "Run each worker, and the subject processes it starts, on a core of its own (faster on an "
                 "otherwise idle machine)")
      ->excludes(coordinator_option);
  app_->allow_extras();
  app_->footer(
      "The subject and its arguments follow '--': exocheck explore [OPTIONS] -- ./subject [ARGS...]\n"
      "Exit status: 0 explored completely, no bug; 1 a bug was found; 2 bad arguments or the subject cannot be\n"
      "launched; 3 stopped by --max-paths or --time-limit before the exploration was complete.");
}

ExploreSettings ExploreCommand::settings_for(const SubjectCommand& subject) const {
  ExploreSettings settings;
  auto& session = settings.session;
  session.explorer.reduction = engine::parse_reduction(reduction_).value();  // checked by IsMember
  session.explorer.sleep_sets = !no_sleep_sets_;
  session.explorer.heuristic = heuristic_named(heuristic_);
  session.explorer.max_paths = max_paths_;
  session.step_limit = step_limit_;
  session.keep_going = keep_going_;
  session.check_determinism = check_ == "determinism";
  session.subject = subject.words.front();
  session.args.assign(subject.words.begin() + 1, subject.words.end());
  settings.workers = workers_;
  settings.time_limit_seconds = time_limit_seconds_;
  settings.run_timeout_seconds = run_timeout_seconds_;
  settings.fork_server = !no_fork_server_;
  settings.pin_workers = pin_workers_;
  settings.in_place = !no_in_place_;
  settings.out_dir = out_;
  return settings;
}

int ExploreCommand::execute(const SubjectCommand& subject) const {
  reject_extra_arguments(*app_);
  require_subject(subject, "explore");
  if (out_.empty()) throw InputError("explore: --out needs a folder name");
  const auto settings = settings_for(subject);
  const Interruption interruption;
  auto outcome = coordinator_.empty() ? explore_embedded(settings) : explore_remotely(settings, coordinator_);
  if (Interruption::requested()) outcome.warnings.push_back("interrupted: stopped before the end (Ctrl-C)");
  write_out_dir(settings.out_dir, settings, outcome);
  if (json_) {
    std::cout << json_text(summary_json(settings, outcome)) << "\n";
  } else {
    std::cout << summary_text(settings, outcome);
  }
  std::cout.flush();
  return exit_status_of(outcome.verdict);
}

}  // namespace exocheck::cli
