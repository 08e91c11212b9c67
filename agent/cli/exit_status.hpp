#pragma once
// The exit statuses of the exocheck command (endings/exit_status.hpp) and the error that maps to
// code 2.

#include <stdexcept>
#include <string>
#include <string_view>

#include "exocheck/endings/exit_status.hpp"

namespace exocheck::cli {

using endings::ExitStatus;
using endings::kBug;
using endings::kInputError;
using endings::kNoBug;
using endings::kStoppedByLimit;

/// A user error (bad option value, bad file, subject that cannot be launched), or an error of
/// exocheck's own; what() is the one line shown, and the process exits with kInputError.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The line for a subject no schedule of which can be explored (agent::refusal_text's `why`):
/// "<command>cannot run 'subject': why", or `why` alone when exocheck itself failed, so that the
/// line starts with "exocheck failed: ".
inline std::string refusal_message(std::string_view command, const std::string& subject, const std::string& why) {
  if (why.starts_with("exocheck failed: ")) return why;
  return std::string(command) + "cannot run '" + subject + "': " + why;
}

}  // namespace exocheck::cli
