#pragma once
// Runs a subject binary by hand, as a user would (no control channel), and collects its output.

#include <chrono>
#include <string>
#include <vector>

namespace exocheck::testing {

/// How one uncontrolled run of a subject ended.
struct SubjectRun {
  int exit_code = -1;      ///< the process's exit status; -1 if it was killed
  bool timed_out = false;  ///< it ran longer than the limit and was killed
  std::string out;         ///< everything it wrote to stdout
  std::string err;         ///< and to stderr
};

/// Runs `EXOCHECK_BIN_DIR/name args...` with EXOCHECK_CONTROL_FD removed from its environment,
/// killing it after `limit`. Throws if the binary cannot be started.
SubjectRun run_subject(const std::string& name, const std::vector<std::string>& args,
                       std::chrono::seconds limit = std::chrono::seconds(60));

}  // namespace exocheck::testing
