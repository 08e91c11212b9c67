#pragma once
// The hook's end of the control channel (control.proto). Frames are collected in one
// preallocated buffer and written in batches, because a syscall per macro-step would cost more
// than the step. Nothing recorded is lost when the process dies: the buffer is flushed when it
// fills, when the run ends, at exit(), and from the handlers of fatal signals and of SIGTERM
// (which the runner sends before SIGKILL when a run hangs). Only _exit() and SIGKILL bypass it.
//
// In a child of the fork server (wire/event_buffer_layout.hpp) the frames go into the shared event
// buffer instead: each is visible to the agent as soon as it is written, so nothing needs
// flushing and even _exit() and SIGKILL lose nothing.

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "kept_steps.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

/// What the runtime records when the process ends inside a step (the delivery it died in, or the
/// one whose handler called exit()), so that the run's trace ends where the run did. `signal` is the
/// fatal signal, or 0 for exit(). Must be async-signal-safe: it may run in a signal handler.
using LastWords = void (*)(int signal);
/// Sets the process's last words (nullptr: none).
void set_last_words(LastWords words);
/// Says the last words set, once per process: from the fatal-signal handlers, at exit(), and where
/// a fork server ends a run's process, each time before what is queued is written.
void say_last_words(int signal);

/// Bytes read from the socket and not yet taken as frames: a run request is read with one system
/// call, header and body together, and whatever came after it waits here. A server that performs
/// its runs in place keeps them apart from the memory it puts back (keep_received_in()).
struct ReceivedBytes {
  static constexpr std::size_t kCapacity = 4096;
  std::size_t begin = 0;
  std::size_t end = 0;
  char bytes[kCapacity];
};

class ControlChannel {
 public:
  /// Takes over `fd` (a connected stream socket) and installs the flushing signal handlers. Frames
  /// are queued in `buffer_bytes` before they go to the socket.
  explicit ControlChannel(int fd, std::size_t buffer_bytes = kSocketBufferBytes);

  /// Enough to batch a whole run's events for the socket.
  static constexpr std::size_t kSocketBufferBytes = 256 * 1024;
  /// Enough for a fork server, whose socket carries only a hello and its own messages.
  static constexpr std::size_t kServerBufferBytes = 4 * 1024;
  /// The socket's descriptor.
  int fd() const { return fd_; }
  ~ControlChannel();
  ControlChannel(const ControlChannel&) = delete;
  ControlChannel& operator=(const ControlChannel&) = delete;

  /// Queues one frame; writes the buffer out first when the frame does not fit.
  void write(const proto::HookMessage& message);
  /// Writes everything queued. Throws std::runtime_error when the agent has gone away.
  void flush();
  /// Blocks until one RunRequest frame arrives. Throws std::runtime_error on EOF or garbage.
  proto::RunRequest read_request();
  /// Like read_request(), but nullopt when the agent closed the channel between requests.
  std::optional<proto::RunRequest> next_request();

  /// Writes what is queued, from a signal handler (async-signal-safe; skipped mid-flush).
  void flush_from_signal() noexcept;
  /// Queues one frame from a signal handler or exit(): serialized in place, no allocation; dropped
  /// when it does not fit or a flush was under way.
  void write_from_signal(const proto::HookMessage& message) noexcept;

  /// Writes a frame straight to the socket, bypassing the event buffer (the fork server's
  /// ServerReady and RunEnd, which the server sends while the buffer belongs to a child).
  void write_to_socket(const proto::HookMessage& message);
  /// From now on, frames go to the shared event buffer `mapping` of `bytes` bytes (a child of
  /// the fork server). Whatever was queued for the socket must have been flushed.
  void use_event_buffer(char* mapping, std::size_t bytes);

  /// From now on, bytes read ahead are kept at `place` (and what is there now moves along).
  void keep_received_in(ReceivedBytes* place);

  /// The last run's steps in the shared event buffer (none without one).
  KeptSteps& kept_steps() { return kept_; }
  /// Bytes of the last run's frames the agent left as they were (0 without a shared buffer).
  std::uint64_t intact_bytes() const;
  /// Bytes of complete frames queued or in the shared buffer.
  std::uint64_t committed_bytes() const { return committed_->load(std::memory_order_relaxed); }
  /// The frames in the shared buffer end after `bytes`: the kept steps' events, which are there
  /// already, or fewer of them. Async-signal-safe.
  void keep_frames(std::uint64_t bytes) noexcept { committed_->store(bytes, std::memory_order_release); }

 private:
  void write_all(const char* data, std::size_t size);
  void read_exactly(char* data, std::size_t size);
  /// Reads what the socket has into received_ (at least a byte); false at end of file.
  bool receive_more();

  int fd_;
  std::unique_ptr<char[]> own_buffer_;
  char* buffer_;
  std::size_t capacity_;
  std::atomic<std::uint64_t> own_committed_{0};
  std::atomic<std::uint64_t>* committed_;             ///< bytes of complete frames in the buffer
  std::atomic<std::uint32_t>* overflowed_ = nullptr;  ///< set: the shared buffer is in use
  const std::atomic<std::uint64_t>* intact_ = nullptr;
  KeptSteps kept_;
  std::atomic<bool> flushing_{false};
  std::string scratch_;  ///< one serialized frame
  std::unique_ptr<ReceivedBytes> own_received_ = std::make_unique<ReceivedBytes>();
  ReceivedBytes* received_ = own_received_.get();
};

}  // namespace exocheck::detail
