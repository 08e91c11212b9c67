#pragma once
// One run of a launched subject, from the request to the verdict: a poll loop over the control
// socket, the stderr pipe and the process's exit, then the ending that fits what happened
// (grace for a clean exit, SIGTERM then SIGKILL after the timeout, SIGKILL on a protocol error).

#include <chrono>
#include <string>

#include "exocheck/agent/runner.hpp"
#include "hook_conversation.hpp"
#include "run_verdict.hpp"
#include "stderr_tail.hpp"
#include "subject_process.hpp"

namespace exocheck::agent {

class RunSession {
 public:
  using Clock = std::chrono::steady_clock;

  /// Takes over `process`, started for `spec`; events and the verdict go to `report`.
  RunSession(const RunSpec& spec, SubjectProcess process, Clock::time_point deadline, RunReport& report);

  /// Drives the run to its end, the process reaped, and sets report.result.
  void run();

 private:
  using Ending = RunEnding;

  Ending converse();
  void pump(Clock::time_point until);
  void write_request();
  bool read_control();  // true when it stopped with more possibly left to read
  bool read_stderr();   // likewise
  void collect_after_exit();
  void wait_for_exit(Clock::time_point until);
  void stop_after_timeout();
  void kill_and_reap();
  void verdict(Ending ending);  // into report_.result
  void give_up();               // RunSpec::give_up became readable: killed, reported given up

  const RunSpec& spec_;
  SubjectProcess process_;
  Clock::time_point deadline_;
  RunReport& report_;
  HookConversation conversation_;
  StderrTail stderr_;
  std::string request_;  // the RunRequest frame; bytes from request_sent_ on are still to be sent
  std::size_t request_sent_ = 0;
  bool killed_by_runner_ = false;
  bool given_up_ = false;  ///< RunSpec::give_up became readable
};

}  // namespace exocheck::agent
