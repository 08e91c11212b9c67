#pragma once
// The fork server, the agent's half (the subject's half is runtime_hook/src/fork_server.cpp): a
// subject started once in fork-server mode (control.proto), whose main runs up to System::run(),
// then each run is a fork of it, writing its events into the shared event buffer
// (wire/event_buffer_layout.hpp). The runner's side of that conversation: start-up, one run at a
// time, and the same precise verdicts as one process per run for every fault of a run (crash, hang,
// garbage, early exit). The server only ever waits; a run that breaks it (garbage on the channel,
// killing it) breaks only this server, and the runner starts another. A server in place performs
// the runs itself: its death during a run is that run's end (a crash, an _exit), and a hang or
// garbage kills it.

#include <chrono>
#include <string>
#include <variant>
#include <vector>

#include "event_buffer.hpp"
#include "exocheck/agent/runner.hpp"
#include "frame_decoder.hpp"
#include "proto/control.pb.h"
#include "ready_set.hpp"
#include "run_verdict.hpp"
#include "stderr_tail.hpp"
#include "subject_process.hpp"

namespace exocheck::agent {

class ForkServerClient {
 public:
  using Clock = std::chrono::steady_clock;

  /// Why a server could not be started or refused to serve, as one line for people.
  struct Refusal {
    std::string reason;
    /// The subject could not be started or never said hello: a run in a process of its own
    /// reports that precisely, so there is nothing to warn about.
    bool not_started = false;
    /// The start was given up (start()'s `give_up` fd became readable): the subject may serve.
    bool given_up = false;
  };

  /// Starts `binary args` in fork-server mode with `buffer` and waits until `deadline` for it to
  /// be ready. `buffer` must outlive the server.
  /// With `in_place`, the server is asked to perform its runs in place (in_place() says whether
  /// it does). Once `give_up` (a file descriptor, -1: none) is readable, the start is given up and
  /// the process killed.
  static std::variant<ForkServerClient, Refusal> start(const std::string& binary, const std::vector<std::string>& args,
                                                       EventBuffer& buffer, Clock::time_point deadline,
                                                       bool in_place = false, int give_up = -1);

  /// How run() went.
  enum class Served {
    complete,  ///< report holds the run's events and verdict
    lost,      ///< the server died or could not fork before the run's end was known: run it another way
  };

  /// Performs `spec`'s run in a fork, within `deadline`.
  Served run(const RunSpec& spec, Clock::time_point deadline, RunReport& report);

  /// False once the server cannot take another run (it died, or the channel carried garbage).
  bool usable() const { return usable_; }
  /// True when the server performs its runs in place instead of forking them.
  bool in_place() const { return in_place_; }
  /// Asked to run in place, why the server forks instead ("" when it runs in place or was not asked).
  const std::string& in_place_refusal() const { return in_place_refusal_; }
  /// What a run in place changed that the server could not put back, ending it; "" otherwise.
  const std::string& in_place_lost() const { return in_place_lost_; }
  /// True when this server runs `binary args`.
  bool serves(const std::string& binary, const std::vector<std::string>& args) const {
    return binary == binary_ && args == args_;
  }
  /// True when the binary file it was started from has changed since (a stat, not done per run).
  bool binary_rebuilt() const;

 private:
  enum class Heard { frame, garbage, gone, timeout, given_up };

  /// One run in progress: its events decoded so far and its stderr.
  struct Run {
    HookConversation conversation;
    std::size_t decoded = 0;  ///< bytes of the event buffer already decoded
    StderrTail errors;
  };

  ForkServerClient(std::string binary, std::vector<std::string> args, SubjectProcess process, EventBuffer& buffer);
  Heard next_frame(Clock::time_point until, StderrTail& errors);
  void pump(Clock::time_point until, StderrTail& errors);
  bool send_request(const RunSpec& spec, Clock::time_point deadline);
  void follow_this_cpu();
  void drain_stderr(StderrTail& errors);
  void kill_run();
  Heard wait_for_end(Clock::time_point deadline, Run& run);
  void decode_new_frames(Run& run);
  Served verdict(const RunSpec& spec, RunEnding ending, int wait_status, bool killed, Run& run, RunReport& report);
  Served server_gone(const RunSpec& spec, Run& run, RunReport& report);

  std::string binary_;
  std::vector<std::string> args_;
  SubjectProcess process_;
  EventBuffer* buffer_;
  FrameDecoder decoder_;
  proto::HookMessage message_;  ///< the last frame next_frame() returned
  std::string problem_;         ///< what the last garbage was
  std::string request_;         ///< the run request being sent
  ReadySet ready_;
  int give_up_fd_ = -1;  ///< while starting or running: readable once the start or run is given up
  bool given_up_ = false;
  Clock::time_point give_up_looked_at_{};
  /// The last round found stderr with nothing to read (or closed): a run whose end came in
  /// that round wrote all it wrote before, so there is nothing to drain after it.
  bool stderr_quiet_ = false;
  bool usable_ = true;
  bool in_place_ = false;
  int cpu_ = -1;  ///< the CPU the server is pinned to (follow_this_cpu()), -1 before its first run
  std::string in_place_refusal_;
  std::string in_place_lost_;
};

}  // namespace exocheck::agent
