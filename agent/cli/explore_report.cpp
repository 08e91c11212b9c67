#include "explore_report.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <limits>
#include <system_error>

#include "exit_status.hpp"
#include "exocheck/agent/timeline.hpp"
#include "exocheck/options/check.hpp"
#include "exocheck/options/delivery.hpp"
#include "exocheck/options/heuristic.hpp"
#include "exocheck/options/reduction.hpp"
#include "exocheck/options/sleep_sets.hpp"
#include "exocheck/options/strategy.hpp"
#include "exocheck/options/timers.hpp"
#include "exocheck/wire/trace_file.hpp"
#include "json_text.hpp"
#include "junit_report.hpp"

namespace exocheck::cli {

bool explored_completely(const ExploreOutcome& outcome) {
  return outcome.verdict == coordinator::Verdict::kCompleteNoBug ||
         (outcome.verdict == coordinator::Verdict::kBugFound && outcome.complete);
}

std::string bug_headline(const coordinator::Bug& bug) {
  const auto text = bug.signature.text();
  return agent::status_in_words(bug.status) + (text.empty() ? "" : ": " + text);
}

std::string bug_counts(const coordinator::Bug& bug) {
  return fmt::format("hit by {} {} in {} {}{}", bug.paths, bug.paths == 1 ? "path" : "paths", bug.classes,
                     bug.classes == 1 ? "class" : "classes",
                     bug.has_trace() ? fmt::format("; shortest run {} steps", bug.steps()) : "; trace not kept");
}

namespace {

double seconds_of(std::chrono::milliseconds duration) {
  return std::chrono::duration<double>(duration).count();
}

bool sampled(const engine::ExplorerOptions& explorer) {
  return engine::is_sampled(explorer.strategy);
}

bool portfolio(const engine::ExplorerOptions& explorer) {
  return explorer.strategy == engine::Strategy::kPortfolio;
}

double paths_per_second(const ExploreOutcome& outcome) {
  return outcome.wall_seconds > 0 ? static_cast<double>(outcome.progress.stats.paths) / outcome.wall_seconds : 0.0;
}

nlohmann::ordered_json options_json(const ExploreSettings& settings) {
  const auto& explorer = settings.session.explorer;
  nlohmann::ordered_json options;
  options["subject"] = settings.session.subject;
  options["args"] = settings.session.args;
  options["reduction"] = options::name_of(explorer.reduction);
  options["sleep_sets"] = explorer.sleep_sets;
  options["heuristic"] = options::name_of(explorer.heuristic);
  options["delivery"] = options::name_of(explorer.delivery);
  options["timers"] = options::name_of(explorer.timers);
  options["workers"] = settings.workers;
  options["max_paths"] = explorer.max_paths;
  options["strategy"] = options::name_of(explorer.strategy);
  if (sampled(explorer) || portfolio(explorer)) {
    options["seed"] = explorer.seed;
    options["pct_depth"] = explorer.strategy == engine::Strategy::kPct ? nlohmann::ordered_json(explorer.pct_depth)
                                                                       : nlohmann::ordered_json(nullptr);
  }
  options["time_limit"] = seconds_of(settings.session.time_limit);
  options["keep_going"] = settings.session.keep_going;
  options["bug_traces"] = settings.session.bug_traces;
  options["max_bugs"] = settings.session.max_bugs;
  const auto& checks = settings.session.explorer.checks;
  options["check"] =
      options::any_check(checks) ? nlohmann::ordered_json(options::names_of(checks)) : nlohmann::ordered_json(nullptr);
  options["run_timeout"] = seconds_of(settings.session.run_timeout);
  options["fork_server"] = settings.fork_server;
  options["pin_workers"] = settings.pin_workers;
  options["in_place"] = settings.fork_server && settings.in_place;
  options["step_limit"] = settings.session.step_limit;
  options["liveness_bound"] = settings.session.liveness_bound;
  const bool no_budget = explorer.held_wakeup_events == std::numeric_limits<std::uint64_t>::max();
  options["wakeup_budget"] = no_budget ? 0 : explorer.held_wakeup_events;
  if (settings.from) options["from_prefix"] = settings.from->prefix;  // --from: the deliveries kept
  const auto& faults = settings.session.faults;
  options["faults"] = {
      {"crash", faults.crashes()},
      {"lose", faults.losses()},
      {"partition", faults.partitions()},
      {"partition_side", std::vector<std::string>(faults.partition_side().begin(), faults.partition_side().end())},
      {"duplicate", faults.duplicates()},
      {"crash_types", std::vector<std::string>(faults.crash_types().begin(), faults.crash_types().end())},
      {"crash_actors", std::vector<std::string>(faults.crash_actors().begin(), faults.crash_actors().end())},
      {"lossy_types", std::vector<std::string>(faults.lossy_types().begin(), faults.lossy_types().end())}};
  return options;
}

nlohmann::ordered_json stats_json(const ExploreOutcome& outcome) {
  const auto& stats = outcome.progress.stats;
  nlohmann::ordered_json json;
  json["paths"] = stats.paths;
  json["sleep_blocked"] = stats.sleep_blocked;
  json["transitions"] = stats.transitions;
  json["executed_steps"] = stats.executed_steps;
  json["classes"] = stats.classes;
  json["redundancy"] = stats.redundancy();
  json["bugs"] = outcome.progress.bugs;  // distinct: each is in "bugs", a trace with the first --bug-traces
  json["bug_paths"] = stats.bugs;
  json["step_limited"] = stats.step_limited;
  json["analysed_in_part"] = stats.analysed_in_part;
  json["cut_for_memory"] = stats.cut_for_memory;
  json["faulted_paths"] = stats.faulted;
  json["sampled_runs"] = stats.sampled;
  json["wall_seconds"] = outcome.wall_seconds;
  json["paths_per_second"] = paths_per_second(outcome);
  if (outcome.runs) {
    json["forked_runs"] = outcome.runs->forked;
    json["in_place_runs"] = outcome.runs->in_place;
    json["server_starts"] = outcome.runs->server_starts;
    json["process_runs"] = outcome.runs->own_process;
  }
  if (outcome.subtrees) json["subtrees"] = *outcome.subtrees;
  return json;
}

std::string path_at(const std::vector<std::string>& paths, std::size_t index) {
  return index < paths.size() ? paths[index] : std::string();
}

nlohmann::ordered_json path_or_null(const std::string& path) {
  return path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(path);
}

// "strategy pct (seed 7, depth 3, 1000 runs), " for a sampled strategy, "strategy portfolio (seed
// 7), " for a portfolio; "" for the systematic one.
std::string strategy_text(const engine::ExplorerOptions& explorer) {
  if (portfolio(explorer)) return fmt::format("strategy portfolio (seed {}), ", explorer.seed);
  if (!sampled(explorer)) return {};
  return fmt::format(
      "strategy {} (seed {}{}, {}), ", options::name_of(explorer.strategy), explorer.seed,
      explorer.strategy == engine::Strategy::kPct ? fmt::format(", depth {}", explorer.pct_depth) : "",
      explorer.max_paths == 0 ? std::string("runs until the time limit") : fmt::format("{} runs", explorer.max_paths));
}

std::string options_text(const ExploreSettings& settings) {
  const auto& explorer = settings.session.explorer;
  std::string subject = settings.session.subject;
  for (const auto& arg : settings.session.args) subject += " " + arg;
  const auto& session = settings.session;
  const std::string limits =
      fmt::format(
          "delivery {}{}, timers {}, time limit {}, {}, run timeout {} s, step limit {}",
          options::name_of(explorer.delivery), settings.delivery_why.empty() ? "" : " (" + settings.delivery_why + ")",
          options::name_of(explorer.timers),
          session.time_limit.count() == 0 ? std::string("none") : fmt::format("{} s", seconds_of(session.time_limit)),
          session.keep_going ? fmt::format("keep going after bugs (traces of {})", session.bug_traces)
                             : "stop at the first bug",
          seconds_of(session.run_timeout), session.step_limit) +
      (agent::faults_text(session.faults).empty() ? "" : ", faults: " + agent::faults_text(session.faults));
  if (sampled(explorer)) {
    // Reduction, sleep sets, heuristic and max paths do not apply to sampled runs.
    return fmt::format("Exploring: {}\nOptions: {}workers {}, {}\n", subject, strategy_text(explorer), settings.workers,
                       limits);
  }
  return fmt::format(
      "Exploring: {}\nOptions: reduction {}, sleep sets {}, heuristic {}, workers {}, max paths {}, {}{}{}\n", subject,
      options::name_of(explorer.reduction), options::sleep_sets_name(explorer.sleep_sets),
      options::name_of(explorer.heuristic), settings.workers,
      explorer.max_paths == 0 ? std::string("none") : std::to_string(explorer.max_paths), limits,
      options::any_check(explorer.checks) ? ", check " + options::names_of(explorer.checks) : "",
      !settings.fork_server ? ", one process per run"
      : settings.in_place   ? ""
                            : ", runs forked");
}

std::string figures_text(const ExploreOutcome& outcome) {
  const auto& stats = outcome.progress.stats;
  std::string text;
  const auto row = [&text](const char* name, const std::string& value) {
    text += fmt::format("  {:<16}{:>14}\n", name, value);
  };
  row("paths", std::to_string(stats.paths));
  row("sleep-blocked", std::to_string(stats.sleep_blocked));
  row("transitions", std::to_string(stats.transitions));
  row("executed steps", std::to_string(stats.executed_steps));
  row("classes", std::to_string(stats.classes));
  row("redundancy", fmt::format("{:.2f}", stats.redundancy()));
  row("bugs", std::to_string(outcome.progress.bugs));
  row("failing paths", std::to_string(stats.bugs));
  if (stats.step_limited != 0) row("step-limited", std::to_string(stats.step_limited));
  if (stats.analysed_in_part != 0) row("analysed in part", std::to_string(stats.analysed_in_part));
  if (stats.cut_for_memory != 0) row("cut for memory", std::to_string(stats.cut_for_memory));
  if (stats.faulted != 0) row("faulted paths", std::to_string(stats.faulted));
  if (stats.sampled != 0) row("sampled runs", std::to_string(stats.sampled));
  row("wall time", fmt::format("{:.2f} s", outcome.wall_seconds));
  row("paths/s", fmt::format("{:.1f}", paths_per_second(outcome)));
  return text;
}

/// The subject's last line on stderr, for the bugs whose only explanation may be there (the process
/// crashed, exited or hung before saying anything on the control channel); "" for the others.
std::string subject_last_words(const coordinator::Bug& bug) {
  switch (bug.status) {
    case proto::RUN_CRASH:
    case proto::RUN_HANG:
    case proto::RUN_EXIT_WITHOUT_RESULT:
    case proto::RUN_PROTOCOL_ERROR:
      break;
    default:
      return {};
  }
  std::string tail = bug.trace.result().stderr_tail();
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  const auto newline = tail.rfind('\n');
  return newline == std::string::npos ? tail : tail.substr(newline + 1);
}

std::string bugs_text(const ExploreOutcome& outcome) {
  if (outcome.bugs.empty()) return {};
  std::string text = fmt::format("Bugs ({} distinct):\n", outcome.bugs.size());
  for (std::size_t i = 0; i < outcome.bugs.size(); ++i) {
    const auto& bug = outcome.bugs[i];
    text += fmt::format("  bug {}: {}\n    {}\n", bug.number, bug_headline(bug), bug_counts(bug));
    if (bug.has_trace()) text += fmt::format("    run: {}\n", bug.detail);
    if (outcome.portfolio && !bug.found_by.empty()) {
      // A job's agents number no runs of the job's: no "at run" then.
      text += fmt::format("    found by: {}{}\n", bug.found_by,
                          bug.found_at_run != 0 ? fmt::format(", at run {}", bug.found_at_run) : "");
    }
    if (const auto words = subject_last_words(bug); !words.empty()) text += fmt::format("    stderr: {}\n", words);
    const auto path = path_at(outcome.trace_paths, i);
    if (!path.empty()) text += fmt::format("    trace: {}\n", path);
    if (i < outcome.needs.size() && outcome.needs[i]) {
      const auto run = path_at(outcome.needs_paths, i);
      text += fmt::format("    {}{}\n", needs_text(*outcome.needs[i]), run.empty() ? "" : " (in " + run + ")");
    }
    if (i < outcome.shrunk.size() && outcome.shrunk[i]) {
      text += fmt::format("    shrunk: {} -> {} steps: {}\n", bug.trace.events_size() - 1,
                          outcome.shrunk[i]->events_size() - 1, path_at(outcome.shrunk_paths, i));
    }
    const auto reference = path_at(outcome.reference_paths, i);
    if (!reference.empty()) text += fmt::format("    reference trace (the first completed path): {}\n", reference);
  }
  return text;
}

std::string warnings_text(const ExploreOutcome& outcome) {
  if (outcome.warnings.empty()) return {};
  std::string text = "Warnings:\n";
  for (const auto& warning : outcome.warnings) text += "  " + warning + "\n";
  return text;
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw InputError("cannot write " + path.string());
}

// Writes NAME.trace and its timeline NAME.txt into `built`; returns where the trace will be once
// `built` is moved to `dir`.
std::string write_trace(const std::filesystem::path& built, const std::filesystem::path& dir, const std::string& name,
                        const proto::TraceFile& trace) {
  try {
    wire::write_trace_file(built / (name + ".trace"), trace);
  } catch (const wire::TraceFileError& failure) {
    throw InputError(failure.what());
  }
  write_text_file(built / (name + ".txt"), agent::format_timeline(trace));
  return (dir / (name + ".trace")).string();
}

// Moves the finished `built` folder to `dir`, replacing an older one.
// Another exploration writing the same folder may put its own in place between the two renames
// (two runs in one directory, tests in parallel): the folder is set aside again, and the last one
// to finish wins, as a single writer's would.
void move_into_place(const std::filesystem::path& built, const std::filesystem::path& dir) {
  constexpr int kAttempts = 5;
  std::error_code error;
  for (int attempt = 1;; ++attempt) {
    if (std::filesystem::exists(dir, error)) {
      const auto old = std::filesystem::path(dir.string() + ".old-" + std::to_string(::getpid()));
      std::filesystem::remove_all(old, error);
      std::filesystem::rename(dir, old, error);
      if (error && std::filesystem::exists(dir) && attempt == kAttempts) {
        throw InputError("cannot replace " + dir.string() + ": " + error.message());
      }
      std::filesystem::remove_all(old, error);
    }
    std::filesystem::rename(built, dir, error);
    if (!error) return;
    if (attempt == kAttempts) {
      throw InputError("cannot rename " + built.string() + " to " + dir.string() + ": " + error.message());
    }
  }
}

}  // namespace

nlohmann::ordered_json summary_json(const ExploreSettings& settings, const ExploreOutcome& outcome) {
  nlohmann::ordered_json summary;
  summary["tool"] = {{"name", "exocheck"}, {"version", EXOCHECK_VERSION}};
  summary["started_at"] = settings.started_at;
  summary["command_line"] = settings.command_line;
  summary["options"] = options_json(settings);
  summary["verdict"] = endings::row_of(outcome.verdict).word;
  summary["complete"] = explored_completely(outcome);
  summary["stats"] = stats_json(outcome);
  auto& bugs = summary["bugs"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < outcome.bugs.size(); ++i) {
    const auto& bug = outcome.bugs[i];
    bugs.push_back(
        {{"number", bug.number},
         {"status", proto::RunStatus_Name(bug.status)},
         {"signature",
          {{"actor_type", bug.signature.actor_type},
           {"message_type", bug.signature.message_type},
           {"what", bug.signature.what}}},
         {"headline", bug_headline(bug)},
         {"paths", bug.paths},
         {"classes", bug.classes},
         {"steps", bug.has_trace() ? nlohmann::ordered_json(bug.steps()) : nlohmann::ordered_json(nullptr)},
         {"detail", bug.detail},
         {"found_at_run",
          bug.found_at_run == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(bug.found_at_run)},
         {"found_by", bug.found_by.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(bug.found_by)},
         {"trace", path_or_null(path_at(outcome.trace_paths, i))},
         {"reference_trace", path_or_null(path_at(outcome.reference_paths, i))}});
    if (i < outcome.needs.size() && outcome.needs[i]) {
      bugs.back()["needs"] = {{"conditions", outcome.needs[i]->needs},
                              {"not_checked", outcome.needs[i]->unchecked},
                              {"dropped", outcome.needs[i]->dropped},
                              {"trace", path_or_null(path_at(outcome.needs_paths, i))}};
    }
    if (i < outcome.shrunk.size() && outcome.shrunk[i]) {
      bugs.back()["shrunk_trace"] = path_or_null(path_at(outcome.shrunk_paths, i));
      bugs.back()["shrunk_steps"] = outcome.shrunk[i]->events_size() - 1;
    }
  }
  summary["warnings"] = outcome.warnings;
  if (settings.from) {
    summary["nearest_passing"] = outcome.nearest_passing
                                     ? nlohmann::ordered_json{{"trace", outcome.nearest_path},
                                                              {"shared_deliveries", outcome.nearest_passing->second}}
                                     : nlohmann::ordered_json(nullptr);
  }
  summary["summary"] = summary_line(outcome);
  return summary;
}

// --from: the passing run nearest the trace's failure, and the command that shows where they part.
std::string nearest_text(const ExploreSettings& settings, const ExploreOutcome& outcome) {
  if (!settings.from) return "";
  if (!outcome.nearest_passing) {
    return "Nearest passing run: none (no path below the kept deliveries completed; fewer --keep-steps look wider)\n";
  }
  const auto shared = outcome.nearest_passing->second;
  const auto& passing = outcome.nearest_passing->first;
  const auto next = static_cast<int>(shared) < passing.prefix_size() ? passing.prefix(static_cast<int>(shared)) : "";
  return fmt::format(
      "Nearest passing run: {} shares the failure's first {} deliveries{}\n  exocheck trace diff {} {}\n",
      outcome.nearest_path.empty() ? "(not saved)" : outcome.nearest_path, shared,
      next.empty() ? std::string() : ", then delivers " + next, settings.from_trace,
      outcome.nearest_path.empty() ? "NEAREST.trace" : outcome.nearest_path);
}

std::string summary_line(const ExploreOutcome& outcome) {
  const auto& stats = outcome.progress.stats;
  if (outcome.sampled) {
    return fmt::format("Summary: sampled, {} runs hit {} distinct classes, {} bugs", stats.paths, stats.classes,
                       outcome.progress.bugs);
  }
  return fmt::format("Summary: {}, {} paths, {} transitions, {} classes, {} bugs{}",
                     explored_completely(outcome) ? "complete" : "incomplete", stats.paths, stats.transitions,
                     stats.classes, outcome.progress.bugs,
                     stats.sampled != 0 ? fmt::format(" ({} sampled runs beside)", stats.sampled) : "");
}

std::string summary_text(const ExploreSettings& settings, const ExploreOutcome& outcome) {
  return options_text(settings) + settings.from_text + figures_text(outcome) + bugs_text(outcome) +
         nearest_text(settings, outcome) + warnings_text(outcome) + summary_line(outcome) + "\n";
}

void write_out_dir(const std::filesystem::path& dir, const ExploreSettings& settings, ExploreOutcome& outcome) {
  const auto built = std::filesystem::path(dir.string() + ".tmp-" + std::to_string(::getpid()));
  std::error_code error;
  std::filesystem::remove_all(built, error);
  std::filesystem::create_directories(built, error);
  if (error) throw InputError("cannot create " + built.string() + ": " + error.message());
  outcome.trace_paths.clear();
  outcome.reference_paths.clear();
  outcome.shrunk_paths.clear();
  outcome.needs_paths.clear();
  for (std::size_t i = 0; i < outcome.bugs.size(); ++i) {
    const auto& bug = outcome.bugs[i];
    const auto name = "bug-" + std::to_string(bug.number);
    outcome.trace_paths.push_back(bug.has_trace() ? write_trace(built, dir, name, bug.trace) : std::string());
    outcome.reference_paths.push_back(bug.reference ? write_trace(built, dir, name + "-reference", *bug.reference)
                                                    : std::string());
    const bool shrunk = i < outcome.shrunk.size() && outcome.shrunk[i];
    outcome.shrunk_paths.push_back(shrunk ? write_trace(built, dir, name + ".shrunk", *outcome.shrunk[i])
                                          : std::string());
    const bool needs_run = i < outcome.needs.size() && outcome.needs[i] && outcome.needs[i]->run;
    outcome.needs_paths.push_back(needs_run ? write_trace(built, dir, name + ".needs", *outcome.needs[i]->run)
                                            : std::string());
  }
  outcome.nearest_path =
      outcome.nearest_passing ? write_trace(built, dir, "nearest-passing", outcome.nearest_passing->first) : "";
  write_text_file(built / "summary.json", json_text(summary_json(settings, outcome)) + "\n");
  move_into_place(built, dir);
  if (!settings.junit_path.empty()) write_text_file(settings.junit_path, junit_xml(settings, outcome));
}

}  // namespace exocheck::cli
