#pragma once
// What `exocheck explore` reports: the effective options, the figures, the bugs and warnings, as
// text for people or JSON for programs, and the crash-safe --out directory.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bug_needs.hpp"
#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/engine/subtree.hpp"

namespace exocheck::cli {

/// The effective settings of one exploration, as parsed from the command line.
struct ExploreSettings {
  coordinator::ExplorationOptions session;  ///< what the session needs (subject, reduction, ...)
  std::size_t workers = 1;
  bool fork_server = true;                ///< false: each run execs the subject anew (--no-fork-server)
  bool pin_workers = false;               ///< --pin-workers
  bool in_place = true;                   ///< false: the fork server forks every run (--no-in-place)
  std::string out_dir;                    ///< where summary.json and the bugs go
  std::string junit_path;                 ///< --junit: where the JUnit XML goes ("" none)
  std::string started_at;                 ///< UTC, ISO 8601, e.g. "2026-11-25T12:00:00Z"
  std::vector<std::string> command_line;  ///< the exocheck command as typed
  /// --from: the subtree below a trace's first deliveries, and what to say of it.
  std::optional<engine::Subtree> from;
  std::string from_text;
  std::string from_trace;    ///< its path
  std::string delivery_why;  ///< why the delivery order is what it is when --delivery was not given
};

/// How the exploration ended, collected from the session once it is finished.
struct ExploreOutcome {
  coordinator::Verdict verdict = coordinator::Verdict::kRunning;
  /// Every path explored: no limit, no stop (a bug without --keep-going stops it).
  bool complete = false;
  bool sampled = false;    ///< --strategy random, pct or pos: paths are runs, and never complete
  bool portfolio = false;  ///< --strategy portfolio: each bug says which member found it
  coordinator::Progress progress;
  std::vector<coordinator::Bug> bugs;
  std::vector<std::string> warnings;
  double wall_seconds = 0;
  /// Embedded mode: how many runs were forked from a fork server, and how many had a process of their own.
  struct RunModes {
    std::uint64_t forked = 0, in_place = 0, own_process = 0;
    std::uint64_t server_starts = 0;
  };
  std::optional<RunModes> runs;
  /// Through a coordinator: subtrees leased to agents (the whole tree, each split, each lease again).
  std::optional<std::uint64_t> subtrees;
  std::vector<std::string> trace_paths;      ///< per bug, where its trace was saved (empty when not saved)
  std::vector<std::string> reference_paths;  ///< per bug, where its reference trace was saved (empty: none)
  /// --shrink: per bug, the shortest schedule that fails the same way (none: not shrunk), and where
  /// it was saved.
  std::vector<std::optional<proto::TraceFile>> shrunk;
  std::vector<std::string> shrunk_paths;
  /// Per bug, what it needs (none: not found, --no-needs).
  std::vector<std::optional<BugNeeds>> needs;
  std::vector<std::string> needs_paths;  ///< per bug, where the run its needs are of was saved (empty: the bug's own)
  /// --from: the completed path that shares most of the trace's first deliveries, how many it
  /// shares, and where it was saved.
  std::optional<std::pair<proto::TraceFile, std::size_t>> nearest_passing;
  std::string nearest_path;
};

/// Nothing left to explore: no bug, or bugs with --keep-going and nothing open.
bool explored_completely(const ExploreOutcome& outcome);

/// A distinct bug in one line: its kind and signature, "deadlock: Cell waits for the reply to IsMine".
std::string bug_headline(const coordinator::Bug& bug);
/// "hit by 12 paths in 4 classes; shortest run 19 steps".
std::string bug_counts(const coordinator::Bug& bug);

/// The summary as JSON: options, verdict, figures, bugs (with their trace paths), warnings.
nlohmann::ordered_json summary_json(const ExploreSettings& settings, const ExploreOutcome& outcome);

/// The report for people: options, figures table, bugs, warnings, then the Summary line.
std::string summary_text(const ExploreSettings& settings, const ExploreOutcome& outcome);

/// The stable last line: "Summary: complete, 10 paths, 29 transitions, 6 classes, 0 bugs".
std::string summary_line(const ExploreOutcome& outcome);

/// Writes summary.json and bug-N.trace + bug-N.txt per bug (and bug-N-reference.trace + .txt for
/// a determinism finding) into `dir`, built as "<dir>.tmp-<pid>"
/// and renamed into place when complete (an older `dir` is replaced). Fills outcome.trace_paths
/// first, so that summary.json names them. Throws InputError when the folder cannot be written.
void write_out_dir(const std::filesystem::path& dir, const ExploreSettings& settings, ExploreOutcome& outcome);

}  // namespace exocheck::cli
