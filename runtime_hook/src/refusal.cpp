// A program that does something exocheck does not model (a blocking receive of a CAF actor, a
// second actor system, ...) is refused, not reported as a bug: the run's result says what it did,
// and the agent stops the exploration with that reason (exit 2). Written wherever the program is:
// in a step, or in main before the run begins (then there is no event; a fork server's start-up
// ends with this result instead of its ready frame, and the agent hears it from a run of its own).
//
// A program that fails in main before the run (an assert() as caf_main spawns its actors) reports
// that result the same way, so that it is the program's bug, with its text, not a crash.

#include <cstdio>
#include <cstdlib>

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"
#include "exocheck/wire/utf8.hpp"

namespace exocheck::detail {

void ControlledRuntime::refuse(const std::string& construct) {
  std::fprintf(stderr, "exocheck: not explorable: %s\n", construct.c_str());
  std::fflush(stderr);
  end_process_with(proto::RUN_UNSUPPORTED, construct);
}

void ControlledRuntime::fail_before_run(proto::RunStatus status, const std::string& detail) {
  end_process_with(status, detail);
}

void ControlledRuntime::end_process_with(proto::RunStatus status, const std::string& detail) {
  proto::RunResult result;
  result.set_status(status);
  result.set_detail(wire::valid_utf8(detail));
  result.set_steps(in_run_ && event_->step() > 0 ? event_->step() - 1 : 0);
  write_result(std::move(result));
  // In a run, exit() as a run ends (a fork server ends its runs in its exit handlers); before one
  // nothing of the program's own exit handlers is to run.
  if (in_run_) std::exit(0);
  std::_Exit(0);
}

}  // namespace exocheck::detail
