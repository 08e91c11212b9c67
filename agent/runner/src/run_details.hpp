#pragma once
// The one-line explanations of runs that ended by a misbehaviour of the subject. Each names the
// subject, what happened, the last step seen (number, message, actor) and the prefix length.

#include <chrono>
#include <string>
#include <vector>

#include "proto/trace.pb.h"

namespace exocheck::agent {

/// What every detail line mentions besides the misbehaviour itself.
struct RunContext {
  const std::string& subject;               ///< the binary as given
  std::size_t prefix_length;                ///< messages in the requested prefix
  const std::vector<proto::Event>& events;  ///< events received so far
};

/// "SIGSEGV" for SIGSEGV; "signal 64" when the signal has no name.
std::string signal_name(int signal);

/// "after step 2 (message 0#1 at actor 1)", "after step 0 (the initial step)" or "before any step".
std::string after_last_step(const std::vector<proto::Event>& events);

/// "./x crashed with SIGSEGV after step 2 (message 0#1 at actor 1); prefix of 0 messages".
std::string crash_detail(const RunContext& run, int signal);

/// "./x: no result within 2000 ms; last step 2 (message 0#1 at actor 1); prefix of 0 messages".
std::string hang_detail(const RunContext& run, std::chrono::milliseconds timeout);

/// "./x exited with code 7 without a result after step 2 (...); prefix of 0 messages".
std::string exit_without_result_detail(const RunContext& run, int exit_code);

/// "./x: oversized frame of 1073741824 bytes after step 2 (...); prefix of 0 messages".
std::string protocol_error_detail(const RunContext& run, const std::string& problem);

/// "./x is not linked with the exocheck hook: it exited with code 0 without a hello on the control channel".
/// A process that exited without a hello: not linked with the hook, or ended before its actors
/// started (its arguments refused, say); `stderr_tail`'s last line, when there is one, may say which.
std::string not_linked_detail(const std::string& subject, int exit_code, const std::string& stderr_tail = {});

}  // namespace exocheck::agent
