#pragma once
// The fork server, the subject's half (the agent's half is agent/runner/src/fork_server_client.cpp;
// control.proto, fork-server mode): main runs once, up to System::run(); then every run request
// is performed by a fork of that process, so that a run costs a fork instead of an exec, dynamic
// loading and main's start-up. The server itself never runs a step: whatever a run does to its
// process, the next run starts from the same state.
//
// In place (EXOCHECK_IN_PLACE=1, where MemorySnapshot works): the server performs each run
// itself, from a snapshot of its memory taken where it waits for requests; the run's exit() comes
// back there through a handler registered before the snapshot, which puts the memory back
// (on a stack of its own) and resumes the server's context, so that a run costs no fork.

#include <sys/types.h>

#include <cstddef>
#include <string>

#include "control_channel.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

class ForkServer {
 public:
  /// Maps the shared event buffer `event_buffer_fd` (and closes the descriptor). Throws
  /// std::runtime_error, naming the descriptor, when it cannot.
  ForkServer(ControlChannel& channel, int event_buffer_fd);
  ~ForkServer();
  ForkServer(const ForkServer&) = delete;
  ForkServer& operator=(const ForkServer&) = delete;

  /// Announces the server, then forks one child per run request and reports each child's end.
  /// Returns only in a child, with the request it is to perform; its channel then writes into
  /// the event buffer. The server ends (_exit) when the agent closes the channel, and at once,
  /// after saying why, when the process cannot be forked safely (threads are running).
  proto::RunRequest serve();
  /// The process performing the run serve() returned: a child, or the server itself in place.
  pid_t run_pid() const { return run_pid_; }

 private:
  void become_run(pid_t server);
  bool prepare_in_place(std::string& why);
  proto::RunRequest next_in_place_run();
  proto::RunRequest next_request_or_exit();

  ControlChannel& channel_;
  char* mapping_ = nullptr;
  std::size_t bytes_ = 0;
  pid_t run_pid_ = 0;
  bool in_run_ = false;           ///< this process is performing a run (a child, or the server in place)
  bool in_place_wanted_ = false;  ///< EXOCHECK_IN_PLACE=1
};

}  // namespace exocheck::detail
