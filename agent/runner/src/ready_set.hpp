#pragma once
// The descriptors a fork server's run is waited on with (its control socket, stderr, its exit),
// registered once with epoll. poll() hooks a wait onto every descriptor it is given and takes it
// off again at each call: with four of them, the largest part of the agent's system time per run
// in place (tests/bench/results-2026-12-01.md). Level-triggered, as poll() is.

#include <array>

namespace exocheck::agent {

class ReadySet {
 public:
  /// What each descriptor is watched as, and its bit in wait()'s answer.
  enum Role : unsigned { kControl = 0, kStderr = 1, kExit = 2, kRoles = 3 };

  ReadySet();
  ~ReadySet();
  ReadySet(ReadySet&& other) noexcept;
  ReadySet& operator=(ReadySet&& other) noexcept;
  ReadySet(const ReadySet&) = delete;
  ReadySet& operator=(const ReadySet&) = delete;

  /// From now on `role` is `fd` (-1: nothing). A descriptor given once stays watched until another
  /// (or -1) is given for its role, or it is closed: give a new one only as -1 first, since a
  /// closed descriptor's number may come back for another file.
  void watch(Role role, int fd);
  /// The roles whose descriptor has something to read (or hung up) within `timeout_ms`, as bits
  /// (1 << role); 0 when none did, or a signal came.
  unsigned wait(int timeout_ms);

 private:
  int epoll_ = -1;  ///< -1: epoll is not available, wait() polls instead
  std::array<int, kRoles> watched_{-1, -1, -1};
};

}  // namespace exocheck::agent
