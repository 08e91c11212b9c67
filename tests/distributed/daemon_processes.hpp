#pragma once
// Real exocheck-coordinator and exocheck-agent processes on loopback, for end-to-end tests.
// Their logs go to files in a scratch folder, so test output stays readable.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace exocheck::distributed_test {

/// Folder of the built binaries (daemons and subjects).
std::filesystem::path bin_dir();

/// What a shell command printed on stdout, and its exit code (-1 when it did not exit).
struct CommandResult {
  int exit_code = -1;
  std::string out;
};
CommandResult run_command(const std::string& command);

/// One child process, killed (SIGKILL) and reaped on destruction if still running.
class DaemonProcess {
 public:
  DaemonProcess(const std::filesystem::path& program, const std::vector<std::string>& args,
                const std::filesystem::path& log);
  ~DaemonProcess();
  DaemonProcess(const DaemonProcess&) = delete;
  DaemonProcess& operator=(const DaemonProcess&) = delete;

  /// True while the process has not exited.
  bool running();
  /// Sends `signal` and waits for the exit; returns the exit status (128 + signal when killed).
  int stop(int signal);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A coordinator on 127.0.0.1 with a free port, plus agents started and killed at will.
class LoopbackCluster {
 public:
  /// `journaled`: the coordinator keeps a state dir (--state-dir), so that restart_coordinator()
  /// resumes its jobs.
  /// `coordinator_args` go to the coordinator besides its address (link security, say).
  explicit LoopbackCluster(bool journaled = false, std::vector<std::string> coordinator_args = {});
  ~LoopbackCluster();

  /// "127.0.0.1:PORT" of the coordinator.
  const std::string& address() const { return address_; }
  /// Starts an agent with `slots` slots named `name`; returns its index for kill_agent().
  /// It runs the subjects under `subjects_dir` (the build's bin folder when empty); `extra_args`
  /// go to it as well.
  std::size_t start_agent(const std::string& name, int slots = 1, const std::filesystem::path& subjects_dir = {},
                          const std::vector<std::string>& extra_args = {});
  /// Agent `index`'s exit status, once it has exited by itself (waits up to `seconds`); -1 if not.
  int agent_exit_status(std::size_t index, int seconds);
  /// Waits (up to 5 s) until the coordinator has seen `count` agents attach since it started.
  void wait_for_agents(std::size_t count) const;
  /// Kills agent `index` with SIGKILL (no goodbye on its stream).
  void kill_agent(std::size_t index);
  /// Sends agent `index` `signal` and waits for its exit; returns its exit status.
  int stop_agent(std::size_t index, int signal);
  /// Kills the coordinator with SIGKILL and starts it again on the same port (and state dir).
  void restart_coordinator();
  /// The coordinator's log so far, every start of it (for failure messages).
  std::string coordinator_log() const;
  /// Agent `index`'s log so far.
  std::string agent_log(std::size_t index) const;

 private:
  void start_coordinator(const std::string& listen);

  bool journaled_ = false;
  std::vector<std::string> coordinator_args_;
  int starts_ = 0;
  std::filesystem::path dir_;
  std::unique_ptr<DaemonProcess> coordinator_;
  std::vector<std::unique_ptr<DaemonProcess>> agents_;
  std::string address_;
};

}  // namespace exocheck::distributed_test
