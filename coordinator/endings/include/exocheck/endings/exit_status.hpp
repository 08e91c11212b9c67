#pragma once
// The exit statuses of the exocheck command (DESIGN.md, "Interfaces").

namespace exocheck::endings {

/// What the process exit code tells the caller.
enum ExitStatus : int {
  kNoBug = 0,           ///< ran or replayed, no bug (explore: explored completely)
  kBug = 1,             ///< the run ended in a bug, or a replay did not reproduce
  kInputError = 2,      ///< bad arguments or a bad input file: one line on stderr
  kStoppedByLimit = 3,  ///< an exploration stopped by a limit before it was complete, no bug
};

}  // namespace exocheck::endings
