#pragma once
// Assertions about the program under test. A failed check ends the handler that made it; in a
// controlled run the run ends with an assertion failure and its trace.

#include <string>

namespace exocheck {

/// Thrown by a failed check. Deliberately not a std::exception, so that a handler's
/// catch (const std::exception&) does not swallow it; the runtime also records the failure
/// before throwing, so even catch (...) cannot hide it.
struct AssertionFailure {
  std::string what;
};

/// Checks a property of the program: when `condition` is false, the current step fails
/// with `what` as the explanation.
void check(bool condition, const std::string& what);

}  // namespace exocheck
