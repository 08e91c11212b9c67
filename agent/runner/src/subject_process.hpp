#pragma once
// One subject process: started in its own process group with the control socket as fd 3 (and,
// in fork-server mode, the event buffer as fd 4), stdin and stdout on /dev/null and stderr on a
// pipe. Owns every descriptor it opened and the
// child itself: destroying it kills the group and reaps the child, so nothing leaks.

#include <sys/types.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "binary_stamp.hpp"
#include "launch_failure.hpp"
#include "unique_fd.hpp"

namespace exocheck::agent {

class SubjectProcess {
 public:
  /// Starts `binary` (searched in PATH when it has no '/') with `args`. With an event buffer
  /// (a memfd, wire/event_buffer_layout.hpp), the subject gets it as fd 4 and starts as a fork server,
  /// which performs its runs in place when `in_place` and the kernel allow it.
  static std::variant<SubjectProcess, LaunchFailure> launch(const std::string& binary,
                                                            const std::vector<std::string>& args,
                                                            int event_buffer_fd = -1, bool in_place = false);
  /// The process id (also its process group's).
  pid_t pid() const { return pid_; }
  /// The binary's path as executed (after the PATH search).
  const std::string& binary_path() const { return binary_path_; }
  /// The binary's stamp, taken before it was executed: nullopt when it could not be read, or when
  /// the process is not a fork server.
  const std::optional<BinaryStamp>& binary_stamp() const { return binary_stamp_; }

  SubjectProcess(SubjectProcess&& other) noexcept;
  SubjectProcess& operator=(SubjectProcess&&) = delete;
  SubjectProcess(const SubjectProcess&) = delete;
  SubjectProcess& operator=(const SubjectProcess&) = delete;
  ~SubjectProcess();

  /// The runner's end of the control socket (non-blocking).
  int control_fd() const { return control_.get(); }
  /// The read end of the subject's stderr (non-blocking), -1 once closed.
  int stderr_fd() const { return stderr_.get(); }
  /// Readable when the process has exited (a pidfd); -1 when the kernel has none: poll then.
  int exit_fd() const { return exit_.get(); }

  /// Closes the runner's end of the control socket.
  void close_control() { control_.reset(); }
  /// Closes the stderr pipe (after its end of file).
  void close_stderr() { stderr_.reset(); }

  /// Reaps the process if it has exited; true once it has.
  bool poll_exit();
  /// Waits for the process to exit (after a SIGKILL, this is short); nothing once it has.
  void reap();
  /// True once the process has been reaped.
  bool exited() const { return status_.has_value(); }
  /// The wait status (waitpid) once exited().
  int wait_status() const { return *status_; }

  /// Sends `signal` to the whole process group.
  void signal_group(int signal) const;

 private:
  SubjectProcess(pid_t pid, UniqueFd control, UniqueFd stderr_read, std::string binary_path,
                 std::optional<BinaryStamp> binary_stamp);
  void record_exit(int status);

  pid_t pid_;
  UniqueFd control_;
  UniqueFd stderr_;
  UniqueFd exit_;
  std::optional<int> status_;
  std::string binary_path_;
  std::optional<BinaryStamp> binary_stamp_;
};

}  // namespace exocheck::agent
