#pragma once
// The agent's end of the shared-memory event buffer (wire/event_buffer_layout.hpp): a memfd mapped
// here and handed to a fork server, into which each run writes its frames.

#include <sys/types.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "exocheck/wire/event_buffer_layout.hpp"
#include "unique_fd.hpp"

namespace exocheck::agent {

class EventBuffer {
 public:
  /// A new buffer of `bytes` (header included), or why it could not be made.
  static std::variant<EventBuffer, std::string> create(std::size_t bytes = wire::kEventBufferBytes);

  EventBuffer(EventBuffer&& other) noexcept;
  EventBuffer& operator=(EventBuffer&&) = delete;
  EventBuffer(const EventBuffer&) = delete;
  EventBuffer& operator=(const EventBuffer&) = delete;
  ~EventBuffer();

  /// The memfd, for the subject to inherit.
  int fd() const { return fd_.get(); }
  /// Empties the buffer for the next run, telling it how many bytes of the last run's frames are
  /// still there (EventBufferHeader::intact).
  void reset();
  /// The complete frames the run wrote (bounded by the buffer, whatever the header says).
  std::string_view frames() const;
  /// The run's process once it has started, else 0.
  pid_t run_pid() const;
  /// The status a run in place passed to exit(), once it has (before its server restored itself).
  std::optional<int> exit_status() const;
  /// True when a frame of the run did not fit.
  bool overflowed() const;
  /// Room for frames, in bytes.
  std::size_t capacity() const { return wire::frame_capacity(bytes_); }

 private:
  EventBuffer(UniqueFd fd, char* mapping, std::size_t bytes);
  wire::EventBufferHeader& header() const { return *reinterpret_cast<wire::EventBufferHeader*>(mapping_); }

  UniqueFd fd_;
  char* mapping_;
  std::size_t bytes_;
};

}  // namespace exocheck::agent
