#pragma once
// Shrinking a failing trace by replaying shorter schedules of it (exocheck/agent/schedule_shrinker.hpp)
// on one runner: `exocheck shrink`, and `explore --shrink` for every bug it saves.

#include <cstddef>
#include <functional>

#include "proto/trace.pb.h"
#include "recorded_run.hpp"

namespace exocheck::cli {

struct ShrunkTrace {
  proto::TraceFile trace;  ///< the run of the shortest schedule found
  std::size_t runs = 0;    ///< replays it took
  bool cut_short = false;  ///< stopped before the shortest: `trace` fails the same way, shorter or not
};

/// The shortest schedule of `original` (a failing trace) that fails the same way, run with
/// `settings` (subject, heuristic, ranking, timeout; the prefix and step limit are the shrinker's).
/// Throws InputError when `original` itself does not fail the same way when replayed. Once `stop`
/// says so (a time limit, Ctrl-C), no other schedule is tried.
ShrunkTrace shrink_failing_trace(const proto::TraceFile& original, const RunSettings& settings,
                                 const std::function<bool()>& stop = {});

}  // namespace exocheck::cli
