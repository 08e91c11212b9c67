#pragma once
// The shared-memory event buffer of fork-server mode: one memfd that the agent creates and the
// subject maps (its descriptor number in EXOCHECK_EVENT_BUFFER_FD). A run appends the frames it
// would have written to the control channel (frame.hpp) after the header, and publishes each by
// advancing `committed`, so that the agent finds every complete frame without a system call per
// frame, and finds them also after the run crashed or was killed: no flush is needed.
//
// The agent resets the header before each run request, leaving the frames' bytes; only the run's
// process writes to it while the run lasts.

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace exocheck::wire {

/// Name of the environment variable that hands the event buffer to the subject.
inline constexpr const char* kEventBufferFdVariable = "EXOCHECK_EVENT_BUFFER_FD";
/// Set to 1 with the event buffer: the server performs its runs in place when the kernel lets it
/// (control.proto, ServerReady.in_place), forking them otherwise.
inline constexpr const char* kInPlaceVariable = "EXOCHECK_IN_PLACE";

struct EventBufferHeader {
  /// Bytes of complete frames after the header. Stored with release order after the frame bytes.
  std::atomic<std::uint64_t> committed;
  /// The run's process, set by the child first thing: the agent kills it when the run hangs.
  std::atomic<std::int32_t> pid;
  /// Non-zero once a frame did not fit: that frame and every later one were dropped.
  std::atomic<std::uint32_t> overflowed;
  /// Runs in place: non-zero once the run called exit(), with `exit_status` stored before it. The
  /// server then puts its memory back; should it die doing so, the run's end is known anyway.
  std::atomic<std::uint32_t> ended;
  std::atomic<std::int32_t> exit_status;
  /// Bytes of frames, from the first, that the agent left as the last run wrote them (it gives the
  /// pages of a long run back): a run may keep the events of the steps it makes as the last run
  /// made them (runtime_hook/src/kept_steps.hpp), within these bytes.
  std::atomic<std::uint64_t> intact;
};

static_assert(std::atomic<std::uint64_t>::is_always_lock_free && std::atomic<std::int32_t>::is_always_lock_free,
              "the event buffer header is shared between processes: its atomics must be lock-free");

/// Frames start here, so that the header owns a cache line of its own.
inline constexpr std::size_t kEventBufferHeaderBytes = 64;
static_assert(sizeof(EventBufferHeader) <= kEventBufferHeaderBytes);

/// The hook's table of the last run's steps (kept_steps.hpp) at the end of a buffer of `bytes`,
/// which frames never reach: none in a small buffer.
inline constexpr std::size_t kept_steps_bytes(std::size_t bytes) {
  return bytes >= (std::size_t{64} << 20) ? std::size_t{4} << 20 : 0;
}

/// Room for frames in a buffer of `bytes`, after the header and before the table of steps.
inline constexpr std::size_t frame_capacity(std::size_t bytes) {
  return bytes - kEventBufferHeaderBytes - kept_steps_bytes(bytes);
}

/// Size of the memfd by default. Pages are only allocated when a run touches them, so a large buffer costs
/// nothing for short runs; a run longer than this ends as exocheck's failure (RUN_EXOCHECK_FAILED),
/// never cut silently.
inline constexpr std::size_t kEventBufferBytes = std::size_t{1} << 30;

}  // namespace exocheck::wire
