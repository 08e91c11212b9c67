#include "exocheck/agent/runner.hpp"

#include <variant>

#include "run_session.hpp"
#include "subject_process.hpp"

namespace exocheck::agent {

RunReport Runner::run(const RunSpec& spec) {
  // The timeout covers the launch too: a slow exec is part of the run.
  const auto deadline = RunSession::Clock::now() + spec.timeout;
  RunReport report;
  auto launched = SubjectProcess::launch(spec.binary, spec.args);
  if (auto* failure = std::get_if<LaunchFailure>(&launched)) {
    report.result.set_status(proto::RUN_LAUNCH_FAILED);
    report.result.set_detail(std::move(failure->detail));
    return report;
  }
  RunSession(spec, std::move(std::get<SubjectProcess>(launched)), deadline, report).run();
  return report;
}

}  // namespace exocheck::agent
