#pragma once
// The verdict on one run, from how it ended: the hook's own result when it sent one, otherwise
// the runner's account of the misbehaviour (protocol error, hang, crash, exit without result,
// program not linked with the hook). Shared by one-process-per-run and fork-server runs, so that
// both report every fault in the same words.

#include <string>

#include "exocheck/agent/runner.hpp"
#include "hook_conversation.hpp"

namespace exocheck::agent {

/// How the run's conversation ended.
enum class RunEnding {
  result,          ///< the hook sent its result
  protocol_error,  ///< the hook (or the subject) broke the protocol: conversation.problem() says how
  exited,          ///< the process ended without a result
  timeout,         ///< the per-run timeout passed
};

struct RunEnd {
  RunEnding ending;
  int wait_status;        ///< as waitpid() reported it
  bool killed_by_runner;  ///< a signal in wait_status came from the runner, not the subject
  std::string problem;    ///< protocol_error: what went wrong
  std::string stderr_tail;
  ChannelFault fault = ChannelFault::garbage;  ///< protocol_error: whose fault it is
};

/// The run's result, into report.result (where the hook's own already is).
/// report.hello_seen and the conversation must be complete; the events the conversation deferred
/// are added to report.events unless the result is lean (a lean result's go to
/// RunSpec::lean_events, if set; a problem it finds with them makes the run a protocol error).
void run_verdict(const RunSpec& spec, HookConversation& conversation, RunReport& report, RunEnd end);

/// A run killed (it had no result yet), or not started, because RunSpec::give_up became readable:
/// RunReport::given_up, and its verdict says so instead of a hang.
void given_up_verdict(RunReport& report);

}  // namespace exocheck::agent
