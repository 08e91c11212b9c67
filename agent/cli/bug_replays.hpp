#pragma once
// What `explore` does with its bugs once the exploration is over, by replaying their traces:
// --shrink (each bug's shortest failing schedule) and "needs:" (what each bug needs, bug_needs.hpp).
// Both stop at Ctrl-C and at --time-limit, which holds for the whole command (what a bug needs
// within a second past it), with a warning.

#include <chrono>

#include "explore_report.hpp"

namespace exocheck::cli {

/// --shrink: each bug's shortest failing schedule into `outcome.shrunk` (a warning for one that
/// cannot be).
void shrink_bugs(const ExploreSettings& settings, ExploreOutcome& outcome,
                 std::chrono::steady_clock::time_point started);

/// Each bug's needs into `outcome.needs` (a warning for one whose replays fail).
void find_bug_needs(const ExploreSettings& settings, ExploreOutcome& outcome,
                    std::chrono::steady_clock::time_point started);

}  // namespace exocheck::cli
