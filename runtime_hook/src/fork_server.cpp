#include "fork_server.hpp"

#include <dirent.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

#include "exocheck/wire/event_buffer.hpp"

namespace exocheck::detail {
namespace {

// Ends a run's process the moment exit() is called, after flushing stdio: the destructors of the
// objects the server built before forking, and the atexit handlers it registered, belong to the
// server. Run in each copy they would free memory page by page, and every page they write costs
// a copy-on-write fault: more than the run itself for a small program. The run's own code,
// main's after System::run() included, still runs; its exit status is kept.
void end_run_process(int status, void*) {
  // The standard streams too: with sync_with_stdio(false) they buffer apart from stdio.
  std::cout.flush();
  std::clog.flush();
  std::fflush(nullptr);
  ::_exit(status);
}

std::string error_text() {
  return std::strerror(errno);
}

/// Threads of this process, from /proc/self/task; 0 when that cannot be read.
std::size_t running_threads() {
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return 0;
  std::size_t count = 0;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] != '.') ++count;
  }
  ::closedir(tasks);
  return count;
}

/// Why this process cannot serve forks, or "" when it can. fork() copies only the calling
/// thread: a thread started before the actor system (a logger, a pool) would be missing from
/// every run, holding whatever locks it held.
std::string why_not_forkable() {
  const std::size_t threads = running_threads();
  if (threads == 1) return "";
  if (threads == 0) return "cannot count the threads of the process (/proc/self/task is unreadable)";
  return std::to_string(threads) + " threads are running when System::run() starts; a fork would copy only one of them";
}

}  // namespace

ForkServer::ForkServer(ControlChannel& channel, int event_buffer_fd) : channel_(channel) {
  const std::string named = std::string(wire::kEventBufferFdVariable) + "=" + std::to_string(event_buffer_fd);
  struct ::stat info {};
  if (::fstat(event_buffer_fd, &info) != 0) throw std::runtime_error(named + " is not usable: " + error_text());
  if (info.st_size <= static_cast<off_t>(wire::kEventBufferHeaderBytes)) {
    throw std::runtime_error(named + " is not an event buffer: " + std::to_string(info.st_size) + " bytes");
  }
  bytes_ = static_cast<std::size_t>(info.st_size);
  void* mapping = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, event_buffer_fd, 0);
  const int map_error = errno;
  ::close(event_buffer_fd);
  if (mapping == MAP_FAILED) {
    throw std::runtime_error("cannot map the event buffer " + named + ": " + std::strerror(map_error));
  }
  mapping_ = static_cast<char*>(mapping);
}

ForkServer::~ForkServer() {
  // In a run's process the mapping goes with the process; unmapping would only cost time.
  if (mapping_ != nullptr && !in_run_) ::munmap(mapping_, bytes_);
}

proto::RunRequest ForkServer::serve() {
  proto::HookMessage message;
  const std::string reason = why_not_forkable();
  message.mutable_ready()->set_forkable(reason.empty());
  message.mutable_ready()->set_reason(reason);
  try {
    channel_.flush();
    channel_.write_to_socket(message);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    ::_exit(3);
  }
  // Not forkable: the agent runs one process per run instead. Other threads may hold locks that
  // exit() needs, so leave without running destructors.
  if (!reason.empty()) ::_exit(0);
  const pid_t server = ::getpid();

  for (;;) {
    std::optional<proto::RunRequest> request;
    try {
      request = channel_.next_request();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%s\n", error.what());
      ::_exit(3);
    }
    if (!request) ::_exit(0);  // the agent closed the channel: the normal end of a server
    const pid_t child = ::fork();
    if (child == 0) {
      become_run(server);
      return std::move(*request);
    }
    message.Clear();
    auto* end = message.mutable_end();
    if (child < 0) {
      end->set_fork_error("fork failed: " + error_text());
    } else {
      int status = 0;
      pid_t done;
      do {
        done = ::waitpid(child, &status, 0);
      } while (done < 0 && errno == EINTR);
      end->set_pid(child);
      // ECHILD: the subject set SIGCHLD to SIG_IGN and the kernel reaped the child; nothing
      // is known of its end but that it ended.
      end->set_wait_status(done == child ? status : 0);
    }
    try {
      channel_.write_to_socket(message);
    } catch (const std::exception&) {
      ::_exit(0);  // the agent has gone away
    }
  }
}

void ForkServer::become_run(pid_t server) {
  // A run must not outlive its server (killed with its group by the agent, or gone because the
  // agent went): the run's own group would otherwise keep a hanging run alive for ever.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != server) ::_exit(1);
  // A group of its own, so that the agent can kill the run and whatever it started, and the
  // pid published only after that, so that the agent never signals the server's group.
  ::setpgid(0, 0);
  in_run_ = true;
  // Registered last, so it runs first at exit().
  ::on_exit(end_run_process, nullptr);
  auto* header = reinterpret_cast<wire::EventBufferHeader*>(mapping_);
  header->pid.store(static_cast<std::int32_t>(::getpid()), std::memory_order_release);
  channel_.use_event_buffer(mapping_, bytes_);
}

}  // namespace exocheck::detail
