#include "ready_set.hpp"

#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <utility>

namespace exocheck::agent {

ReadySet::ReadySet() : epoll_(::epoll_create1(EPOLL_CLOEXEC)) {}

ReadySet::~ReadySet() {
  if (epoll_ >= 0) ::close(epoll_);
}

ReadySet::ReadySet(ReadySet&& other) noexcept
    : epoll_(std::exchange(other.epoll_, -1)), watched_(std::exchange(other.watched_, {-1, -1, -1})) {}

ReadySet& ReadySet::operator=(ReadySet&& other) noexcept {
  if (this != &other) {
    if (epoll_ >= 0) ::close(epoll_);
    epoll_ = std::exchange(other.epoll_, -1);
    watched_ = std::exchange(other.watched_, {-1, -1, -1});
  }
  return *this;
}

void ReadySet::watch(Role role, int fd) {
  int& watched = watched_[role];
  if (watched == fd) return;
  if (epoll_ >= 0) {
    // Fails harmlessly when the old descriptor was closed: closing took it out of the set.
    if (watched >= 0) ::epoll_ctl(epoll_, EPOLL_CTL_DEL, watched, nullptr);
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u32 = role;
    if (fd >= 0 && ::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) != 0) {
      // Not watchable by epoll (cannot happen for sockets, pipes and pidfds): poll() from now on.
      ::close(std::exchange(epoll_, -1));
    }
  }
  watched = fd;
}

unsigned ReadySet::wait(int timeout_ms) {
  unsigned ready = 0;
  if (epoll_ >= 0) {
    std::array<epoll_event, kRoles> events{};
    const int count = ::epoll_wait(epoll_, events.data(), static_cast<int>(events.size()), timeout_ms);
    for (int i = 0; i < count; ++i) ready |= 1u << events[i].data.u32;
    return ready;
  }
  std::array<pollfd, kRoles> fds{};
  for (unsigned role = 0; role < kRoles; ++role) fds[role] = {watched_[role], POLLIN, 0};
  if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return 0;
  for (unsigned role = 0; role < kRoles; ++role) {
    if (fds[role].revents != 0) ready |= 1u << role;
  }
  return ready;
}

}  // namespace exocheck::agent
