#include "run_verdict.hpp"

#include <sys/wait.h>

#include "exocheck/wire/result_events.hpp"
#include "exocheck/wire/utf8.hpp"
#include "run_details.hpp"

namespace exocheck::agent {
namespace {

// The process ended by itself without a result: how it ended says why.
proto::RunResult exit_verdict(const RunSpec& spec, const RunContext& run, const RunReport& report, int status,
                              const std::string& stderr_tail) {
  proto::RunResult result;
  if (WIFSIGNALED(status)) {
    result.set_status(proto::RUN_CRASH);
    result.set_detail(crash_detail(run, WTERMSIG(status)));
  } else if (!report.hello_seen) {
    result.set_status(proto::RUN_LAUNCH_FAILED);
    result.set_detail(not_linked_detail(spec.binary, WEXITSTATUS(status), stderr_tail));
  } else {
    result.set_status(proto::RUN_EXIT_WITHOUT_RESULT);
    result.set_detail(exit_without_result_detail(run, WEXITSTATUS(status)));
  }
  return result;
}

// A broken conversation: the program's bug when it may have written the bytes, else exocheck's.
void channel_fault_verdict(const RunContext& run, const RunEnd& end, proto::RunResult& result) {
  switch (end.fault) {
    case ChannelFault::garbage:
      result.set_status(proto::RUN_PROTOCOL_ERROR);
      result.set_detail(protocol_error_detail(run, end.problem));
      return;
    case ChannelFault::exocheck:
      result.set_status(proto::RUN_EXOCHECK_FAILED);
      result.set_detail(protocol_error_detail(run, end.problem));
      return;
    case ChannelFault::other_version:
      result.set_status(proto::RUN_LAUNCH_FAILED);
      result.set_detail(run.subject + " " + end.problem);
      return;
  }
}

}  // namespace

void run_verdict(const RunSpec& spec, HookConversation& conversation, RunReport& report, RunEnd end) {
  // A misbehaving run is reported with every step it made; a clean one with the deferred steps
  // only if its result cannot be lean or must show every step. A lean one's go to the sink if
  // there is one.
  const bool lean = end.ending == RunEnding::result && wire::lean_result(spec.request, conversation.result());
  if (lean && spec.lean_events) {
    auto problem =
        spec.lean_events->take(report.deferred_events, report.deferred_event_ends,
                               wire::first_step_to_send(spec.request, conversation.result()), conversation.result());
    if (problem) {
      end.ending = RunEnding::protocol_error;
      end.problem = std::move(*problem);
      end.fault = ChannelFault::exocheck;
    } else {
      report.events_taken = true;
    }
  }
  const bool prefix_wanted = !lean || (spec.request.all_steps() && !report.events_taken);
  if (prefix_wanted || end.ending == RunEnding::protocol_error) conversation.complete_events();
  if (end.ending != RunEnding::protocol_error && conversation.failed()) {
    end.ending = RunEnding::protocol_error;
    end.problem = conversation.problem();
    end.fault = conversation.fault();
  }
  const RunContext run{spec.binary, static_cast<std::size_t>(spec.request.prefix_size()), report.events};
  proto::RunResult& result = report.result;
  // The hook's own result is there already (HookConversation); any other verdict is the runner's.
  if (end.ending != RunEnding::result) result.Clear();
  switch (end.ending) {
    case RunEnding::result:
      break;
    case RunEnding::protocol_error:
      channel_fault_verdict(run, end, result);
      break;
    case RunEnding::timeout:
      result.set_status(proto::RUN_HANG);
      result.set_detail(hang_detail(run, spec.timeout));
      break;
    case RunEnding::exited:
      result = exit_verdict(spec, run, report, end.wait_status, end.stderr_tail);
      break;
  }
  if (end.ending != RunEnding::result) result.set_steps(report.events.empty() ? 0 : report.events.back().step());
  if (WIFEXITED(end.wait_status)) result.set_exit_code(WEXITSTATUS(end.wait_status));
  if (WIFSIGNALED(end.wait_status) && !end.killed_by_runner) result.set_signal(WTERMSIG(end.wait_status));
  result.set_stderr_tail(wire::valid_utf8(end.stderr_tail));
}

void given_up_verdict(RunReport& report) {
  report.given_up = true;
  report.result.set_status(proto::RUN_HANG);
  report.result.set_detail("given up: the exploration stopped");
}

}  // namespace exocheck::agent
