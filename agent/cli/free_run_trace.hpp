#pragma once
// A free run's recording (runtime_hook/src/free_run_recording.hpp: the log the thread-pool runtime
// writes under EXOCHECK_RECORD) made into a trace file that `exocheck replay` follows.

#include <string>
#include <string_view>
#include <vector>

#include "proto/trace.pb.h"

namespace exocheck::cli {

/// How the recorded process ended, from waitpid().
struct ProcessEnd {
  int exit_code = 0;
  int signal = 0;     ///< 0: it exited
  bool known = true;  ///< false: only the log is there (record --from); a step never ended is a death
};

/// The trace of the run `log` recorded: its steps in the order they began (step 0, what main did,
/// is not recorded: the replay makes it again), and its result: the first failed step's, a step
/// the process died in, a deadlock, or how the process ended. Lines it cannot read are skipped.
/// An empty `subject`: the command line the log begins with.
proto::TraceFile trace_of_free_run(std::string_view log, const ProcessEnd& end, const std::string& subject,
                                   const std::vector<std::string>& args);

/// What the recorded run did that a replay cannot follow yet (its "U" lines: a CAF timer's
/// message, a blocking receive, ...), or a damaged log's steps that cannot be read, each once;
/// empty: the trace can be replayed.
std::vector<std::string> unreplayable_constructs(std::string_view log);

/// Whether the recorded run failed (anything but RUN_COMPLETED).
bool failed(const proto::TraceFile& recorded);

}  // namespace exocheck::cli
