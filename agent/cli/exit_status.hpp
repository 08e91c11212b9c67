#pragma once
// The exit statuses of the exocheck command (endings/exit_status.hpp) and the error that maps to
// code 2.

#include <stdexcept>

#include "exocheck/endings/exit_status.hpp"

namespace exocheck::cli {

using endings::ExitStatus;
using endings::kBug;
using endings::kInputError;
using endings::kNoBug;
using endings::kStoppedByLimit;

/// A user error (bad option value, bad file, subject that cannot be launched); what() is the one
/// line shown, and the process exits with kInputError.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace exocheck::cli
