#pragma once
// What the runner's poll loops share: timeouts in poll()'s unit, telling "nothing to read yet"
// from an error, and whether a descriptor is readable now.

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace exocheck::agent {

/// Without a pidfd, how often a poll loop looks whether the process it waits for exited.
inline constexpr std::chrono::milliseconds kExitPollInterval{2};

/// Milliseconds from now until `until`, rounded up, clamped to [0, 60 s] for poll().
inline int milliseconds_until(std::chrono::steady_clock::time_point until) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(left.count(), 0, 60'000));
}

/// True for the errno of a non-blocking read or write that would have blocked.
inline bool would_block(int error) {
  return error == EAGAIN || error == EWOULDBLOCK;
}

/// True when `fd` has something to read now (false for -1).
inline bool readable(int fd) {
  if (fd < 0) return false;
  pollfd poll_fd{fd, POLLIN, 0};
  return ::poll(&poll_fd, 1, 0) > 0 && (poll_fd.revents & POLLIN) != 0;
}

}  // namespace exocheck::agent
