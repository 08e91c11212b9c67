#include "run_session.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <system_error>

#include <spdlog/spdlog.h>

#include "exocheck/wire/frame.hpp"
#include "poll_wait.hpp"
#include "request_frame.hpp"

namespace exocheck::agent {
namespace {

using std::chrono::milliseconds;

/// How long a subject may take to exit after sending its result.
constexpr milliseconds kExitGrace{1000};
/// How long the hook gets to flush its buffered events after the SIGTERM that ends a hang.
constexpr milliseconds kTermGrace{200};
/// Bytes read per call, and calls per poll round, so that a chatty subject cannot starve the deadline.
constexpr std::size_t kReadChunk = 64 * 1024;
constexpr int kReadsPerRound = 16;
/// Rounds of reading what a process left behind when it exited (up to 1 GiB).
constexpr int kRoundsAfterExit = 1024;

}  // namespace

RunSession::RunSession(const RunSpec& spec, SubjectProcess process, Clock::time_point deadline, RunReport& report)
    : spec_(spec), process_(std::move(process)), deadline_(deadline), report_(report), conversation_(report) {
  conversation_.defer_for(spec);
  append_request_frame(request_, spec.request);
}

void RunSession::run() {
  Ending ending = converse();
  if (given_up_ && ending == Ending::timeout) {
    give_up();
    return;
  }
  switch (ending) {
    case Ending::result:
      wait_for_exit(Clock::now() + kExitGrace);
      if (!process_.exited()) {
        if (!given_up_) {  // else the wait was cut short: the process is not to blame
          spdlog::warn("{} did not exit within {} ms after its result; killed", spec_.binary, kExitGrace.count());
        }
        kill_and_reap();
      }
      break;
    case Ending::protocol_error:
      kill_and_reap();
      break;
    case Ending::exited:
      wait_for_exit(deadline_);
      if (given_up_ && !process_.exited()) {
        give_up();
        return;
      }
      if (!process_.exited()) {
        ending = Ending::timeout;
        stop_after_timeout();
      }
      break;
    case Ending::timeout:
      stop_after_timeout();
      break;
  }
  collect_after_exit();
  verdict(ending);
}

RunSession::Ending RunSession::converse() {
  write_request();
  while (true) {
    if (conversation_.finished()) return Ending::result;
    if (conversation_.failed()) return Ending::protocol_error;
    if (process_.control_fd() < 0) return Ending::exited;
    if (Clock::now() >= deadline_ || given_up_) return Ending::timeout;
    pump(deadline_);
  }
}

// One poll round: whatever is ready among the control socket, stderr and the exit is handled.
void RunSession::pump(Clock::time_point until) {
  std::array<pollfd, 4> fds{};
  nfds_t count = 0;
  int control = -1, errors = -1, exit = -1, give_up = -1;
  if (spec_.give_up >= 0 && !given_up_) {  // once seen, it is not polled again: it stays readable
    fds[count] = {spec_.give_up, POLLIN, 0};
    give_up = static_cast<int>(count++);
  }
  if (process_.control_fd() >= 0 && !conversation_.done()) {
    const bool sending = request_sent_ < request_.size();
    fds[count] = {process_.control_fd(), static_cast<short>(POLLIN | (sending ? POLLOUT : 0)), 0};
    control = static_cast<int>(count++);
  }
  if (process_.stderr_fd() >= 0) {
    fds[count] = {process_.stderr_fd(), POLLIN, 0};
    errors = static_cast<int>(count++);
  }
  if (process_.exit_fd() >= 0) {
    fds[count] = {process_.exit_fd(), POLLIN, 0};
    exit = static_cast<int>(count++);
  }
  int wait = milliseconds_until(until);
  if (exit < 0) wait = std::min(wait, static_cast<int>(kExitPollInterval.count()));
  if (::poll(fds.data(), count, wait) < 0) {
    if (errno != EINTR) {
      spdlog::warn("poll on the channels of {} failed: {}", spec_.binary,
                   std::error_code(errno, std::system_category()).message());
    }
    return;
  }
  if (give_up >= 0 && fds[give_up].revents != 0) given_up_ = true;
  if (control >= 0 && (fds[control].revents & POLLOUT)) write_request();
  if (control >= 0 && (fds[control].revents & (POLLIN | POLLHUP | POLLERR))) read_control();
  if (errors >= 0 && fds[errors].revents != 0) read_stderr();
  if (exit < 0 || fds[exit].revents != 0) {
    if (process_.poll_exit()) collect_after_exit();
  }
}

void RunSession::write_request() {
  while (request_sent_ < request_.size()) {
    const ssize_t sent =
        ::send(process_.control_fd(), request_.data() + request_sent_, request_.size() - request_sent_, MSG_NOSIGNAL);
    if (sent > 0) {
      request_sent_ += static_cast<std::size_t>(sent);
    } else if (sent < 0 && errno == EINTR) {
      continue;
    } else {
      // EAGAIN: the rest goes when the socket has room. EPIPE and the like: the subject is gone
      // or closed its end; how it exits tells why.
      if (sent < 0 && !would_block(errno)) request_sent_ = request_.size();
      return;
    }
  }
}

bool RunSession::read_control() {
  for (int reads = 0; reads < kReadsPerRound; ++reads) {
    if (conversation_.done()) return false;
    const ssize_t got = ::read(process_.control_fd(), conversation_.prepare(kReadChunk), kReadChunk);
    if (got > 0) {
      conversation_.received(static_cast<std::size_t>(got));
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      // End of file or a reset connection: the hook will say nothing more.
      if (got == 0 || !would_block(errno)) process_.close_control();
      return false;
    }
  }
  return true;
}

bool RunSession::read_stderr() {
  char buffer[4096];
  for (int reads = 0; reads < kReadsPerRound; ++reads) {
    const ssize_t got = ::read(process_.stderr_fd(), buffer, sizeof buffer);
    if (got > 0) {
      stderr_.append({buffer, static_cast<std::size_t>(got)});
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      if (got == 0 || !would_block(errno)) process_.close_stderr();
      return false;
    }
  }
  return true;
}

// Once the process is gone, everything it wrote is buffered in the socket and the pipe: take it,
// then close both rather than wait for end of file (a stray grandchild may hold them open).
void RunSession::collect_after_exit() {
  // Bounded all the same: a grandchild could keep writing forever.
  for (int rounds = 0; process_.control_fd() >= 0 && rounds < kRoundsAfterExit && read_control(); ++rounds) {
  }
  process_.close_control();
  for (int rounds = 0; process_.stderr_fd() >= 0 && rounds < kRoundsAfterExit && read_stderr(); ++rounds) {
  }
  process_.close_stderr();
}

void RunSession::wait_for_exit(Clock::time_point until) {
  while (!process_.exited() && Clock::now() < until && !given_up_) pump(until);
}

void RunSession::stop_after_timeout() {
  // The hook flushes its buffered events on SIGTERM: give it a moment before SIGKILL.
  process_.signal_group(SIGTERM);
  killed_by_runner_ = true;
  const auto until = Clock::now() + kTermGrace;
  while (!process_.exited() && Clock::now() < until) pump(until);
  kill_and_reap();
}

void RunSession::kill_and_reap() {
  if (process_.exited()) return;
  process_.signal_group(SIGKILL);
  killed_by_runner_ = true;
  process_.reap();
}

void RunSession::verdict(Ending ending) {
  run_verdict(spec_, conversation_, report_,
              RunEnd{ending, process_.wait_status(), killed_by_runner_, conversation_.problem(), stderr_.text(),
                     conversation_.fault()});
}

// Nothing the run wrote is of use (its schedule goes back unexplored), and reading and parsing a
// long run's events took seconds: it is killed at once, its output left unread.
void RunSession::give_up() {
  kill_and_reap();
  given_up_verdict(report_);
}

}  // namespace exocheck::agent
