#pragma once
// The text of `explore`'s live progress: a bar with the share of the tree explored and an
// estimate of the time left when the engine can make one, then the figures, cut to the
// terminal's width so that the line is rewritten in place and never wraps.

#include <cstddef>
#include <string>

#include "exocheck/coordinator/exploration_session.hpp"

namespace exocheck::agent {

/// The figures, for a log line: "1,234 paths, ..., 43% explored (estimate), 12.3 s".
std::string progress_figures(const coordinator::Progress& progress, double elapsed_seconds);

/// One terminal line of at most `width` columns: "[#####-----]  43% ~1m12s left | figures".
std::string progress_line(const coordinator::Progress& progress, double elapsed_seconds, std::size_t width);

/// "45s", "1m12s", "2h05m": a duration for people.
std::string short_duration(double seconds);

}  // namespace exocheck::agent
