#include "subject_process.hpp"

#include <sys/wait.h>
#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>
#include <future>

#include "exocheck/wire/frame.hpp"

namespace exocheck::testing {

namespace bp = boost::process;

SubjectRun run_subject(const std::string& name, const std::vector<std::string>& args, std::chrono::seconds limit) {
  auto environment = boost::this_process::environment();
  environment.erase(wire::kControlFdVariable);  // uncontrolled even when the tester itself is

  boost::asio::io_context io;
  std::future<std::string> out, err;
  bp::group group;  // so that a timeout also ends whatever the subject started
  bp::child child(std::string(EXOCHECK_BIN_DIR) + "/" + name, bp::args(args), environment, bp::std_out > out,
                  bp::std_err > err, io, group);

  // child::wait_for is unreliable in Boost 1.74; bound the run by the read of stdout instead,
  // which ends when the process exits (or closes stdout).
  SubjectRun run;
  io.run_for(limit);
  if (!io.stopped()) {
    run.timed_out = true;
    group.terminate();
    io.run();  // every writer of stdout is gone: the pending read completes
  }
  child.wait();
  const int status = child.native_exit_code();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = out.get();
  run.err = err.get();
  return run;
}

}  // namespace exocheck::testing
