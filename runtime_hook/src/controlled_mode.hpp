#pragma once
// The controlled half of a process an agent started: the control channel it handed over through
// the environment, the fork server when it asked for one, the controlled runtime, and the hello
// that tells the agent the hook is there. The native System and the CAF adapter both start here.

#include <memory>

namespace exocheck::detail {

class ControlChannel;
class ControlledRuntime;
class ForkServer;

class ControlledMode {
 public:
  /// Null when no agent started this process (EXOCHECK_CONTROL_FD unset). When the environment
  /// names descriptors that cannot be used, says why on stderr and exits with status 2. The
  /// variables are removed: they must not leak into processes the subject starts itself.
  static std::unique_ptr<ControlledMode> from_environment();

  ~ControlledMode();
  ControlledMode(const ControlledMode&) = delete;
  ControlledMode& operator=(const ControlledMode&) = delete;

  ControlledRuntime& runtime() { return *runtime_; }
  /// Performs the run (ControlledRuntime::run). With a fork server, returns only in the process
  /// that performed a run.
  int run();

 private:
  ControlledMode(int control_fd, int event_buffer_fd);

  std::unique_ptr<ControlChannel> channel_;
  std::unique_ptr<ForkServer> fork_server_;
  std::unique_ptr<ControlledRuntime> runtime_;
};

}  // namespace exocheck::detail
