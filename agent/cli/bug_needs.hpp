#pragma once
// What a bug needs (`explore`'s "needs:"): each fault, early timer firing and delivery weaker than
// causal of its run (exocheck/agent/run_conditions.hpp), tried away by a replay. One that the
// failure survives is dropped, the run that survived it taken as the bug's from then on; one
// whose replay no longer fails is what the bug needs.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "exocheck/coordinator/bug_signature.hpp"
#include "proto/trace.pb.h"
#include "recorded_run.hpp"

namespace exocheck::cli {

struct BugNeeds {
  std::vector<std::string> needs;      ///< without each, its replay did not fail the same way
  std::vector<std::string> unchecked;  ///< not tried: the replays' budget or `stop` came first
  std::size_t dropped = 0;             ///< conditions its runs had that the failure went on without
  std::size_t runs = 0;                ///< replays it took
  /// The run the needs are of, when conditions were dropped (its ids and steps are what `needs`
  /// names): it fails as the bug's does. Saved as bug-N.needs.trace.
  std::optional<proto::TraceFile> run;
};

/// The needs of the bug `signature` whose trace is `bug` (its run may fail other ways too),
/// replayed with `settings` (subject, options; the prefix is set here). Once `stop` says so,
/// nothing more is tried.
BugNeeds needs_of_bug(const proto::TraceFile& bug, const coordinator::BugSignature& signature,
                      const RunSettings& settings, const std::function<bool()>& stop);

/// "needs: A; B", "needs nothing unlikely: ...", as the report and JUnit print it.
std::string needs_text(const BugNeeds& needs);

}  // namespace exocheck::cli
