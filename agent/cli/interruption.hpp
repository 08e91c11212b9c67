#pragma once
// Ctrl-C during `exocheck explore`: the first SIGINT (or SIGTERM) asks the exploration to stop
// now, giving up the runs in progress and any analysis of a result, so that what was found is
// still reported (and a remote job is cancelled instead of running on for nobody); a second one
// ends the process at once.

namespace exocheck::cli {

/// While alive, SIGINT and SIGTERM set a flag instead of ending the process; the signal that
/// comes after it does end it. Not copyable; one at a time.
class Interruption {
 public:
  Interruption();
  ~Interruption();
  Interruption(const Interruption&) = delete;
  Interruption& operator=(const Interruption&) = delete;

  /// True once a signal came.
  static bool requested();
};

}  // namespace exocheck::cli
