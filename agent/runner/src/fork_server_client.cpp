#include "fork_server_client.hpp"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cerrno>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cpu_pinning.hpp"
#include "exocheck/wire/frame.hpp"
#include "poll_wait.hpp"
#include "request_frame.hpp"

namespace exocheck::agent {
namespace {

using std::chrono::milliseconds;

/// How long the server gets to report the end of a run the runner killed.
constexpr milliseconds kKillGrace{1000};
/// How often a run's or a start's give-up descriptor is looked at while events come.
constexpr milliseconds kGiveUpEvery{1};
/// How often the events of a run still in progress are decoded.
constexpr milliseconds kDecodeEvery{1};
constexpr std::size_t kReadChunk = 64 * 1024;

/// The wait status of a process killed by SIGKILL.
constexpr int kKilledStatus = SIGKILL;

}  // namespace

std::variant<ForkServerClient, ForkServerClient::Refusal> ForkServerClient::start(const std::string& binary,
                                                                                  const std::vector<std::string>& args,
                                                                                  EventBuffer& buffer,
                                                                                  Clock::time_point deadline,
                                                                                  bool in_place, int give_up) {
  auto launched = SubjectProcess::launch(binary, args, buffer.fd(), in_place);
  if (auto* failure = std::get_if<LaunchFailure>(&launched)) return Refusal{failure->detail, true};
  ForkServerClient server(binary, args, std::move(std::get<SubjectProcess>(launched)), buffer);
  server.give_up_fd_ = give_up;
  StderrTail errors;
  bool hello_seen = false;
  for (;;) {
    switch (server.next_frame(deadline, errors)) {
      case Heard::frame:
        break;
      case Heard::garbage:
        return Refusal{"its start-up wrote " + server.problem_ + " on the control channel"};
      case Heard::gone:
        if (!hello_seen) return Refusal{"it exited without a hello (not linked with the hook?)", true};
        return Refusal{"it exited before System::run()"};
      case Heard::timeout:
        return Refusal{"it was not ready within the run timeout"};
      case Heard::given_up:
        return Refusal{"its start was given up", true, true};
    }
    const auto& message = server.message_;
    if (message.has_hello() && !hello_seen) {
      if (message.hello().protocol_version() != wire::kProtocolVersion) {
        return Refusal{fmt::format("its hook speaks protocol version {}, the runner {}",
                                   message.hello().protocol_version(), wire::kProtocolVersion)};
      }
      // A hook that does not know fork-server mode would wait for a run request forever.
      if (!message.hello().fork_server()) return Refusal{"its hook does not serve forks (linked with an older hook?)"};
      hello_seen = true;
    } else if (message.has_ready() && hello_seen) {
      if (!message.ready().forkable()) return Refusal{message.ready().reason()};
      server.in_place_ = message.ready().in_place();
      server.in_place_refusal_ = message.ready().in_place_reason();
      // A give-up seen in the same poll round as the ready frame is of no more use: the server
      // is ready. Left set, it would end the server's first run at once, as a hang.
      server.give_up_fd_ = -1;
      server.given_up_ = false;
      return server;
    } else if (message.has_result()) {
      // Its start-up ended the run (not explorable, a failed assert()): its runs, one process
      // each, report it again.
      return Refusal{"its start-up ended with a result: " + message.result().detail()};
    } else {
      return Refusal{"its start-up sent an unexpected frame on the control channel"};
    }
  }
}

ForkServerClient::ForkServerClient(std::string binary, std::vector<std::string> args, SubjectProcess process,
                                   EventBuffer& buffer)
    : binary_(std::move(binary)), args_(std::move(args)), process_(std::move(process)), buffer_(&buffer) {}

bool ForkServerClient::binary_rebuilt() const {
  const auto& started = process_.binary_stamp();
  return !started || stamp_of(process_.binary_path()) != started;
}

// Waits for the next complete frame from the server, reading stderr into `errors` meanwhile.
ForkServerClient::Heard ForkServerClient::next_frame(Clock::time_point until, StderrTail& errors) {
  for (;;) {
    std::string_view payload;
    switch (decoder_.next(payload)) {
      case FrameDecoder::Status::frame:
        message_.Clear();
        if (!message_.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
          problem_ = fmt::format("unparseable frame of {} bytes", payload.size());
          return Heard::garbage;
        }
        return Heard::frame;
      case FrameDecoder::Status::oversized:
        problem_ = fmt::format("oversized frame of {} bytes", decoder_.oversized_length());
        return Heard::garbage;
      case FrameDecoder::Status::incomplete:
        break;
    }
    if (process_.control_fd() < 0) return Heard::gone;
    if (given_up_) return Heard::given_up;
    if (Clock::now() >= until) return Heard::timeout;
    pump(until, errors);
  }
}

// One round of waiting on the control socket, stderr and the server's exit. A give-up is looked
// at apart, at most every kGiveUpEvery: its descriptor is the caller's, and may change per run.
void ForkServerClient::pump(Clock::time_point until, StderrTail& errors) {
  ready_.watch(ReadySet::kControl, process_.control_fd());
  ready_.watch(ReadySet::kStderr, process_.stderr_fd());
  ready_.watch(ReadySet::kExit, process_.exit_fd());
  int wait = milliseconds_until(until);
  if (process_.exit_fd() < 0) wait = std::min(wait, static_cast<int>(kExitPollInterval.count()));
  if (give_up_fd_ >= 0) wait = std::min(wait, static_cast<int>(kGiveUpEvery.count()));
  const unsigned ready = ready_.wait(wait);
  if (give_up_fd_ >= 0 && (ready == 0 || Clock::now() >= give_up_looked_at_ + kGiveUpEvery)) {
    given_up_ = readable(give_up_fd_);
    give_up_looked_at_ = Clock::now();
  }
  // A run's end read in this round was sent after all the run wrote to stderr, which is then
  // among the ready too if there is any: epoll's ready list holds each descriptor from the moment
  // it became readable, and this round took the whole list (verdict() relies on it: stderr_quiet_).
  stderr_quiet_ = (ready & (1u << ReadySet::kStderr)) == 0;
  if (!stderr_quiet_) drain_stderr(errors);
  const bool exited = (process_.exit_fd() < 0 || (ready & (1u << ReadySet::kExit)) != 0) && process_.poll_exit();
  if ((ready & (1u << ReadySet::kControl)) == 0 && !exited) return;
  const ssize_t got = ::read(process_.control_fd(), decoder_.prepare(kReadChunk), kReadChunk);
  if (got > 0) {
    decoder_.commit(static_cast<std::size_t>(got));
  } else if (got == 0 || !(would_block(errno) || errno == EINTR) || exited) {
    // End of file, or the server is gone and everything it wrote has been read (a run's child
    // may still hold the socket open, so end of file need not come).
    process_.close_control();
  }
}

void ForkServerClient::drain_stderr(StderrTail& errors) {
  char chunk[4096];
  for (int reads = 0; reads < 64 && process_.stderr_fd() >= 0; ++reads) {
    const ssize_t got = ::read(process_.stderr_fd(), chunk, sizeof chunk);
    if (got > 0) {
      errors.append({chunk, static_cast<std::size_t>(got)});
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      if (got == 0 || !would_block(errno)) process_.close_stderr();
      return;
    }
  }
}

bool ForkServerClient::send_request(const RunSpec& spec, Clock::time_point deadline) {
  request_.clear();
  append_request_frame(request_, spec.request);
  std::size_t sent = 0;
  while (sent < request_.size()) {
    const ssize_t n = ::send(process_.control_fd(), request_.data() + sent, request_.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && would_block(errno) && Clock::now() < deadline) {
      pollfd fd{process_.control_fd(), POLLOUT, 0};
      ::poll(&fd, 1, milliseconds_until(deadline));
    } else {
      return false;
    }
  }
  return true;
}

// The server runs on the CPU of the thread that drives it. A run and its worker hand over to each
// other twice per run and never run at once; left to the scheduler, the one woken often goes to
// another, idle CPU, and on a virtual machine waking an idle CPU costs tens of microseconds
// (tests/bench/results-2026-11-25.md). A worker that moves takes its server along at its next run;
// one pinned makes this a no-op after the first.
void ForkServerClient::follow_this_cpu() {
  const int cpu = ::sched_getcpu();
  if (cpu >= 0 && cpu != cpu_ && pin(process_.pid(), {cpu})) cpu_ = cpu;
}

void ForkServerClient::kill_run() {
  if (in_place_) {
    // The run is the server itself.
    process_.signal_group(SIGKILL);
    process_.reap();
    return;
  }
  const pid_t pid = buffer_->run_pid();
  // The child publishes its pid only once it leads a group of its own: never the server's.
  if (pid > 0 && pid != process_.pid()) ::kill(-pid, SIGKILL);
}

// While a run lasts, the agent decodes what the run has written so far every kDecodeEvery: on
// several cores, decoding a long run's events then overlaps with the run instead of following it.
// A run shorter than that costs no extra wake-up.
ForkServerClient::Heard ForkServerClient::wait_for_end(Clock::time_point deadline, Run& run) {
  for (;;) {
    const auto until = std::min(deadline, Clock::now() + kDecodeEvery);
    const Heard heard = next_frame(until, run.errors);
    if (heard != Heard::timeout || Clock::now() >= deadline) return heard;
    decode_new_frames(run);
  }
}

void ForkServerClient::decode_new_frames(Run& run) {
  const std::string_view frames = buffer_->frames();
  if (frames.size() <= run.decoded || run.conversation.done()) return;
  run.decoded += run.conversation.take_frames(frames.substr(run.decoded));
}

ForkServerClient::Served ForkServerClient::run(const RunSpec& spec, Clock::time_point deadline, RunReport& report) {
  buffer_->reset();
  follow_this_cpu();
  stderr_quiet_ = false;
  if (!send_request(spec, deadline)) {
    usable_ = false;
    return Served::lost;
  }
  report.hello_seen = true;  // the server said hello for every run it forks
  Run run{HookConversation(report), 0, StderrTail()};
  run.conversation.defer_for(spec);
  give_up_fd_ = spec.give_up;  // a run is given up as a start is
  Heard heard = wait_for_end(deadline, run);
  const bool given_up = heard == Heard::given_up;
  give_up_fd_ = -1;  // else the wait for the end of a run killed below would end at once
  given_up_ = false;
  if (heard == Heard::frame && !message_.has_end()) {
    // The server sends nothing else during a run: the run itself wrote on the control socket.
    problem_ =
        fmt::format("unexpected frame on the control channel (field {})", static_cast<int>(message_.body_case()));
    heard = Heard::garbage;
  }
  switch (heard) {
    case Heard::frame:
      if (!message_.end().fork_error().empty()) {
        spdlog::warn("{}: fork server cannot start a run: {}", binary_, message_.end().fork_error());
        usable_ = false;
        return Served::lost;
      }
      if (!message_.end().in_place_lost().empty()) {
        in_place_lost_ = message_.end().in_place_lost();
        usable_ = false;
      }
      if (in_place_) {
        // The run's own record of its end; a server that cannot restore itself knows no other.
        if (const auto exited = buffer_->exit_status())
          return verdict(spec, RunEnding::exited, W_EXITCODE(*exited, 0), false, run, report);
      }
      return verdict(spec, RunEnding::exited, message_.end().wait_status(), false, run, report);
    case Heard::garbage:
      // The stream is out of step: this server is done. The run dies with it.
      kill_run();
      usable_ = false;
      return verdict(spec, RunEnding::protocol_error, kKilledStatus, true, run, report);
    case Heard::gone:
      return server_gone(spec, run, report);
    case Heard::timeout:
    case Heard::given_up:  // killed as a run that hangs
      break;
  }
  kill_run();
  int status = kKilledStatus;
  if (in_place_) {
    usable_ = false;
  } else if (next_frame(Clock::now() + kKillGrace, run.errors) == Heard::frame && message_.has_end()) {
    status = message_.end().wait_status();
  } else {
    usable_ = false;
  }
  if (given_up) {
    // Nothing the run wrote is of use (its schedule goes back unexplored), and parsing a long
    // run's events took seconds.
    given_up_verdict(report);
    return Served::complete;
  }
  return verdict(spec, RunEnding::timeout, status, true, run, report);
}

// The server died before the run's end was known. A forking server's run is done again another
// way; a server in place died of its run (a crash, an _exit): that is the run's end.
ForkServerClient::Served ForkServerClient::server_gone(const RunSpec& spec, Run& run, RunReport& report) {
  usable_ = false;
  if (!in_place_ || buffer_->run_pid() == 0) {
    kill_run();
    return Served::lost;
  }
  process_.reap();
  // The run had called exit() when its server died putting its memory back: it ended normally.
  const std::optional<int> exited = buffer_->exit_status();
  return verdict(spec, RunEnding::exited, exited ? W_EXITCODE(*exited, 0) : process_.wait_status(), false, run, report);
}

ForkServerClient::Served ForkServerClient::verdict(const RunSpec& spec, RunEnding ending, int wait_status, bool killed,
                                                   Run& run, RunReport& report) {
  // The run has ended, so all it wrote to stderr is in the pipe (read already when the poll that
  // brought its end found none), and all it recorded in the buffer.
  if (ending != RunEnding::exited || !stderr_quiet_) drain_stderr(run.errors);
  decode_new_frames(run);
  HookConversation& conversation = run.conversation;
  std::string problem = problem_;
  ChannelFault fault = ChannelFault::garbage;
  if (ending != RunEnding::protocol_error) {
    if (conversation.finished()) {
      // Also after a timeout: like a process that hangs after its result, the result stands.
      if (ending == RunEnding::timeout) spdlog::warn("{}: a run did not end after its result; killed", binary_);
      ending = RunEnding::result;
    } else if (conversation.failed()) {
      ending = RunEnding::protocol_error;
      problem = conversation.problem() + " in the event buffer";
      fault = conversation.fault();
    } else if (buffer_->overflowed()) {
      ending = RunEnding::protocol_error;
      problem = fmt::format("events beyond the {} bytes of the event buffer", buffer_->capacity());
      fault = ChannelFault::exocheck;
    }
  }
  run_verdict(spec, conversation, report, RunEnd{ending, wait_status, killed, problem, run.errors.text(), fault});
  return Served::complete;
}

}  // namespace exocheck::agent
