#include "fork_server.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <malloc.h>
#include <stdio_ext.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

#include "exocheck/wire/event_buffer_layout.hpp"
#include "exocheck/wire/frame.hpp"
#include "memory_snapshot.hpp"

namespace exocheck::detail {
namespace {

void flush_streams() {
  // The standard streams too: with sync_with_stdio(false) they buffer apart from stdio.
  std::cout.flush();
  std::clog.flush();
  std::fflush(nullptr);
}

// Ends a run's process the moment exit() is called, after flushing stdio: the destructors of the
// objects the server built before forking, and the atexit handlers it registered, belong to the
// server. Run in each copy they would free memory page by page, and every page they write costs
// a copy-on-write fault: more than the run itself for a small program. The run's own code,
// main's after System::run() included, still runs; its exit status is kept.
void end_run_process(int status, void*) {
  say_last_words(0);  // exit() inside a step: the step is the run's last
  flush_streams();
  ::_exit(status);
}

/// What a server in place keeps apart from its memory, so that restores leave it alone, and what
/// the end of a run needs once main's objects (the channel, the server) are destroyed.
struct InPlaceArena {
  ucontext_t resume;    ///< where the server waits for its next run request, as at the snapshot
  ucontext_t restorer;  ///< restore_memory() on `stack`
  MemorySnapshot* snapshot;
  wire::EventBufferHeader* header;
  int control_fd;
  pid_t server;  ///< the server's pid: a process the run forks is not it
  int running;   ///< a run is in progress
  int exit_status;
  int resumed;  ///< non-zero once a run has ended and the memory has been put back
  MemorySnapshot::Restored restored;
  /// What the server read of the socket beyond a request: none in practice, as the agent sends
  /// the next request only after the run's end, but never lost with the memory.
  ReceivedBytes received;
  /// RunEnd saying the memory could not be put back, serialized beforehand: when that happens,
  /// the heap is no longer usable.
  std::size_t failure_frame_bytes;
  char failure_frame[256];
  alignas(64) char stack[64 * 1024];
};

/// Set once, before the snapshot, so that every restore keeps it.
InPlaceArena* in_place = nullptr;

void send_frame(const char* frame, std::size_t bytes) {
  for (std::size_t sent = 0; sent < bytes;) {
    const ssize_t n = ::send(in_place->control_fd, frame + sent, bytes - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(0);  // the agent has gone away
    sent += static_cast<std::size_t>(n);
  }
}

std::string run_end_frame(int exit_status, const std::string& lost) {
  proto::HookMessage message;
  auto* end = message.mutable_end();
  end->set_pid(in_place->server);
  end->set_wait_status(W_EXITCODE(exit_status, 0));
  end->set_in_place_lost(lost);
  std::string frame;
  wire::append_frame(frame, message);
  return frame;
}

// Sends the end of a run in place straight on the socket: main's objects may be gone.
void send_run_end(int exit_status, const std::string& lost) {
  const std::string frame = run_end_frame(exit_status, lost);
  send_frame(frame.data(), frame.size());
}

// Runs on the arena's stack: the process's own stack is among the pages it puts back.
void restore_memory() {
  in_place->restored = in_place->snapshot->restore();
  if (in_place->restored == MemorySnapshot::Restored::failed) {
    // The run's exit status is in the buffer's header already.
    send_frame(in_place->failure_frame, in_place->failure_frame_bytes);
    ::_exit(0);
  }
  ::setcontext(&in_place->resume);
}

// A child the run forks exits as any process does: its memory is its own. Told here rather than
// by comparing pids at exit: getpid() is a system call, in every run.
void forked_from_run() {
  if (in_place != nullptr) in_place->running = 0;
}

// Registered before the snapshot, so that it is the last handler of every run's exit().
void end_in_place_run(int status, void*) {
  if (in_place->running == 0) return;
  say_last_words(0);  // exit() inside a step: the step is the run's last
  in_place->running = 0;
  flush_streams();
  in_place->header->exit_status.store(status, std::memory_order_relaxed);
  in_place->header->ended.store(1, std::memory_order_release);
  // A thread the run started (a CAF actor's, waiting for its turn) cannot be put back.
  const std::size_t threads = in_place->snapshot->running_threads();
  const std::string lost = threads == 2  ? "the run left a thread of its own running"
                           : threads > 2 ? "the run left " + std::to_string(threads - 1) + " threads of its own running"
                                         : in_place->snapshot->layout_change();
  if (!lost.empty()) {
    send_run_end(status, lost);
    ::_exit(0);
  }
  in_place->exit_status = status;
  in_place->resumed = 1;
  ::setcontext(&in_place->restorer);
}

std::string error_text() {
  return std::strerror(errno);
}

/// Why this process cannot serve forks, or "" when it can. fork() copies only the calling
/// thread: a thread started before the actor system (a logger, a pool) would be missing from
/// every run, holding whatever locks it held.
std::string why_not_forkable() {
  const int tasks = ::open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const std::size_t threads = threads_listed_in(tasks);
  if (tasks >= 0) ::close(tasks);
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
  // Its step 0 is not known to be the last server's (the same buffer, a server started again).
  KeptSteps(mapping_ + wire::kEventBufferHeaderBytes + wire::frame_capacity(bytes_), wire::kept_steps_bytes(bytes_))
      .forget();
  if (const char* in_place_wanted = std::getenv(wire::kInPlaceVariable)) {
    in_place_wanted_ = std::string(in_place_wanted) == "1";
    ::unsetenv(wire::kInPlaceVariable);
  }
}

ForkServer::~ForkServer() {
  // In a run's process the mapping goes with the process; unmapping would only cost time.
  if (mapping_ != nullptr && !in_run_) ::munmap(mapping_, bytes_);
}

proto::RunRequest ForkServer::serve() {
  proto::HookMessage message;
  const std::string reason = why_not_forkable();
  std::string in_place_reason;
  if (reason.empty() && in_place_wanted_ && prepare_in_place(in_place_reason)) {
    // Every run ends by coming back here, with the memory as it is now.
    ::getcontext(&in_place->resume);
    if (in_place->resumed != 0) return next_in_place_run();
    const AddressRange arena{reinterpret_cast<std::uintptr_t>(in_place),
                             reinterpret_cast<std::uintptr_t>(in_place) + sizeof(InPlaceArena)};
    in_place->snapshot = MemorySnapshot::take({&arena, 1}, in_place_reason).release();
  }
  const bool runs_in_place = in_place != nullptr && in_place->snapshot != nullptr;
  message.mutable_ready()->set_forkable(reason.empty());
  message.mutable_ready()->set_reason(reason);
  message.mutable_ready()->set_in_place(runs_in_place);
  message.mutable_ready()->set_in_place_reason(in_place_reason);
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
  if (runs_in_place) return next_in_place_run();
  const pid_t server = ::getpid();

  for (;;) {
    proto::RunRequest request = next_request_or_exit();
    const pid_t child = ::fork();
    if (child == 0) {
      become_run(server);
      return request;
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

bool ForkServer::prepare_in_place(std::string& why) {
  void* arena = ::mmap(nullptr, sizeof(InPlaceArena), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (arena == MAP_FAILED) {
    why = "cannot map the in-place arena: " + error_text();
    return false;
  }
  in_place = new (arena) InPlaceArena{};
  in_place->header = reinterpret_cast<wire::EventBufferHeader*>(mapping_);
  in_place->control_fd = channel_.fd();
  in_place->server = ::getpid();
  run_pid_ = in_place->server;
  const std::string failure = run_end_frame(0, "the memory the run changed could not be put back");
  if (failure.size() > sizeof in_place->failure_frame) std::abort();  // a constant message: cannot happen
  std::memcpy(in_place->failure_frame, failure.data(), failure.size());
  in_place->failure_frame_bytes = failure.size();
  // The heap must not shrink below, nor leave, what the snapshot holds: keep freed memory in the
  // heap instead of giving it back, and serve large blocks from it instead of from mappings.
  ::mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  ::mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  // Made once: restore_memory() never returns, so each run's end enters it afresh at the top of
  // the arena's stack.
  ::getcontext(&in_place->restorer);
  in_place->restorer.uc_stack.ss_sp = in_place->stack;
  in_place->restorer.uc_stack.ss_size = sizeof in_place->stack;
  in_place->restorer.uc_link = nullptr;
  ::makecontext(&in_place->restorer, restore_memory, 0);
  ::on_exit(end_in_place_run, nullptr);
  ::pthread_atfork(nullptr, nullptr, forked_from_run);
  channel_.keep_received_in(&in_place->received);
  // stdout gets its buffer at its first write (an fstat and a malloc), in every run when that is
  // after the snapshot: given now, as glibc would give it then (fully buffered, as a stream that is
  // not a terminal is), it is the snapshot's. A terminal's stays line-buffered, allocated per run.
  if (::__fbufsize(stdout) == 0 && ::isatty(STDOUT_FILENO) == 0) ::setvbuf(stdout, nullptr, _IOFBF, 0);
  return true;
}

proto::RunRequest ForkServer::next_in_place_run() {
  if (in_place->resumed != 0) {
    if (in_place->restored == MemorySnapshot::Restored::mappings_changed) {
      send_run_end(in_place->exit_status,
                   "the run left memory mapped (mmap without munmap, or a stack deeper than 128 KiB below "
                   "System::run()'s)");
      ::_exit(0);
    }
    send_run_end(in_place->exit_status, "");
  }
  proto::RunRequest request = next_request_or_exit();
  in_run_ = true;
  in_place->running = 1;
  in_place->header->pid.store(static_cast<std::int32_t>(in_place->server), std::memory_order_release);
  channel_.use_event_buffer(mapping_, bytes_);
  return request;
}

proto::RunRequest ForkServer::next_request_or_exit() {
  std::optional<proto::RunRequest> request;
  try {
    request = channel_.next_request();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s\n", error.what());
    ::_exit(3);
  }
  if (!request) ::_exit(0);  // the agent closed the channel: the normal end of a server
  return std::move(*request);
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
  run_pid_ = ::getpid();
  auto* header = reinterpret_cast<wire::EventBufferHeader*>(mapping_);
  header->pid.store(static_cast<std::int32_t>(run_pid_), std::memory_order_release);
  channel_.use_event_buffer(mapping_, bytes_);
}

}  // namespace exocheck::detail
