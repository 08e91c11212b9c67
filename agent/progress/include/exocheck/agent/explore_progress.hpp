#pragma once
// The live progress of `exocheck explore` on stderr: one rewritten line on a terminal (at most 4
// updates a second), otherwise a log line every 5 seconds.

#include <chrono>

#include "exocheck/coordinator/exploration_session.hpp"

namespace exocheck::agent {

class ExploreProgress {
 public:
  /// `terminal`: stderr is a terminal, so the line can be rewritten in place.
  explicit ExploreProgress(bool terminal);

  /// True when update() would show something now.
  bool due() const;
  /// Shows `progress` if enough time passed since the last update.
  void update(const coordinator::Progress& progress);
  /// Clears the live line before the report is printed.
  void finish();
  /// Seconds since construction.
  double elapsed_seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  const bool terminal_;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point last_shown_ = start_;
  bool line_shown_ = false;
};

}  // namespace exocheck::agent
