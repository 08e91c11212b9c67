#include "event_buffer.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <utility>

namespace exocheck::agent {
namespace {

/// Bytes of the buffer kept allocated between runs.
constexpr std::size_t kKeptBytes = std::size_t{16} << 20;

std::string error_text(int error) {
  return std::error_code(error, std::system_category()).message();
}

}  // namespace

std::variant<EventBuffer, std::string> EventBuffer::create(std::size_t bytes) {
  if (bytes <= wire::kEventBufferHeaderBytes)
    return "an event buffer of " + std::to_string(bytes) + " bytes is too small";
  UniqueFd fd(::memfd_create("exocheck-events", MFD_CLOEXEC));
  if (!fd) return "cannot create the event buffer (memfd_create): " + error_text(errno);
  if (::ftruncate(fd.get(), static_cast<off_t>(bytes)) != 0) {
    return "cannot size the event buffer: " + error_text(errno);
  }
  void* mapping = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (mapping == MAP_FAILED) return "cannot map the event buffer: " + error_text(errno);
  return EventBuffer(std::move(fd), static_cast<char*>(mapping), bytes);
}

EventBuffer::EventBuffer(UniqueFd fd, char* mapping, std::size_t bytes)
    : fd_(std::move(fd)), mapping_(mapping), bytes_(bytes) {}

EventBuffer::EventBuffer(EventBuffer&& other) noexcept
    : fd_(std::move(other.fd_)), mapping_(std::exchange(other.mapping_, nullptr)), bytes_(other.bytes_) {}

EventBuffer::~EventBuffer() {
  if (mapping_ != nullptr) ::munmap(mapping_, bytes_);
}

void EventBuffer::reset() {
  // A long run leaves its pages allocated in the memfd: give back all but the first ones, which
  // the next runs reuse, so that one long run does not hold its memory for the whole exploration.
  const std::size_t used = wire::kEventBufferHeaderBytes + frames().size();
  std::size_t intact = frames().size();
  if (used > kKeptBytes) {
    ::fallocate(fd_.get(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(kKeptBytes),
                static_cast<off_t>(used - kKeptBytes));
    intact = kKeptBytes - wire::kEventBufferHeaderBytes;
  }
  header().intact.store(intact, std::memory_order_relaxed);
  header().committed.store(0, std::memory_order_relaxed);
  header().pid.store(0, std::memory_order_relaxed);
  header().overflowed.store(0, std::memory_order_relaxed);
  header().ended.store(0, std::memory_order_relaxed);
  header().exit_status.store(0, std::memory_order_relaxed);
}

std::string_view EventBuffer::frames() const {
  // A subject that scribbles over the header must not make the agent read beyond the mapping.
  const std::size_t committed = std::min<std::uint64_t>(header().committed.load(std::memory_order_acquire), capacity());
  return {mapping_ + wire::kEventBufferHeaderBytes, committed};
}

pid_t EventBuffer::run_pid() const {
  return header().pid.load(std::memory_order_acquire);
}

std::optional<int> EventBuffer::exit_status() const {
  if (header().ended.load(std::memory_order_acquire) == 0) return std::nullopt;
  return header().exit_status.load(std::memory_order_relaxed);
}

bool EventBuffer::overflowed() const {
  return header().overflowed.load(std::memory_order_acquire) != 0;
}

}  // namespace exocheck::agent
