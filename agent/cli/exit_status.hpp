#pragma once
// Exit codes of the exocheck command (DESIGN.md, "Interfaces") and the error that maps to code 2.

#include <stdexcept>

namespace exocheck::cli {

/// What the process exit code tells the caller.
enum ExitStatus : int {
  kNoBug = 0,           ///< ran or replayed, no bug
  kBug = 1,             ///< the run ended in a bug, or a replay did not reproduce
  kInputError = 2,      ///< bad arguments or a bad input file: one line on stderr
  kStoppedByLimit = 3,  ///< an exploration stopped by a limit before it was complete, no bug
};

/// A user error (bad option value, bad file, subject that cannot be launched); what() is the one
/// line shown, and the process exits with kInputError.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace exocheck::cli
