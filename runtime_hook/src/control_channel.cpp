#include "control_channel.hpp"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "exocheck/wire/event_buffer_layout.hpp"
#include "exocheck/wire/frame.hpp"

namespace exocheck::detail {

namespace {

constexpr int kFlushSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM};

// The one channel of this process, for the signal handlers and exit().
std::atomic<ControlChannel*> active_channel{nullptr};
std::atomic<LastWords> last_words{nullptr};
// Said already: a second fatal signal inside the first's handler only ends the process.
std::atomic<bool> last_words_said{false};

void flush_and_die(int signal_number) {
  say_last_words(signal_number);
  if (ControlChannel* channel = active_channel.load()) channel->flush_from_signal();
  // SA_RESETHAND restored the default action: re-raise so the process ends by this signal.
  std::raise(signal_number);
}

void flush_at_exit() {
  say_last_words(0);
  if (ControlChannel* channel = active_channel.load()) channel->flush_from_signal();
}

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = flush_and_die;
  action.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int signal_number : kFlushSignals) sigaction(signal_number, &action, nullptr);
  static bool registered = false;
  if (!registered) {
    std::atexit(flush_at_exit);
    registered = true;
  }
}

}  // namespace

void set_last_words(LastWords words) {
  last_words.store(words);
}

void say_last_words(int signal) {
  const LastWords words = last_words.load();
  if (words == nullptr || last_words_said.exchange(true)) return;
  words(signal);
}

ControlChannel::ControlChannel(int fd, std::size_t buffer_bytes)
    : fd_(fd),
      own_buffer_(new char[buffer_bytes]),
      buffer_(own_buffer_.get()),
      capacity_(buffer_bytes),
      committed_(&own_committed_) {
  active_channel.store(this);
  install_handlers();
}

ControlChannel::~ControlChannel() {
  try {
    flush();
  } catch (...) {
  }
  active_channel.store(nullptr);
  if (overflowed_ == nullptr) {
    ::close(fd_);
    return;
  }
  // A run in the shared buffer ends with its process, or hands the socket back to a server that
  // performs its runs in place, which puts its memory back anyway: the socket is the server's,
  // and freeing costs time.
  static_cast<void>(own_buffer_.release());
}

void ControlChannel::write(const proto::HookMessage& message) {
  scratch_.clear();
  wire::append_frame(scratch_, message);
  std::size_t used = committed_->load(std::memory_order_relaxed);
  if (overflowed_ != nullptr) {
    // The shared buffer cannot be emptied: a frame that does not fit ends the record, and the
    // agent, seeing the flag, reports the run as a protocol error rather than a short trace.
    if (overflowed_->load(std::memory_order_relaxed) != 0 || used + scratch_.size() > capacity_) {
      overflowed_->store(1, std::memory_order_release);
      return;
    }
  } else if (used + scratch_.size() > capacity_) {
    flush();
    used = 0;
  }
  if (scratch_.size() > capacity_) {
    write_all(scratch_.data(), scratch_.size());
    return;
  }
  std::memcpy(buffer_ + used, scratch_.data(), scratch_.size());
  std::atomic_signal_fence(std::memory_order_seq_cst);
  committed_->store(used + scratch_.size(), std::memory_order_release);
}

void ControlChannel::flush() {
  if (overflowed_ != nullptr) return;  // the agent reads the shared buffer itself
  const std::size_t size = committed_->load();
  if (size == 0) return;
  flushing_.store(true);
  try {
    write_all(buffer_, size);
  } catch (...) {
    flushing_.store(false);
    throw;
  }
  committed_->store(0);
  flushing_.store(false);
}

void ControlChannel::flush_from_signal() noexcept {
  if (flushing_.load() || overflowed_ != nullptr) return;
  const std::size_t size = committed_->load();
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd_, buffer_ + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
  committed_->store(0);
}

void ControlChannel::write_from_signal(const proto::HookMessage& message) noexcept {
  if (flushing_.load()) return;
  const std::size_t size = message.ByteSizeLong();
  const std::size_t frame = wire::kFrameHeaderBytes + size;
  std::size_t used = committed_->load(std::memory_order_relaxed);
  if (used + frame > capacity_ && overflowed_ == nullptr) {
    flush_from_signal();
    used = committed_->load(std::memory_order_relaxed);
  }
  // Not marked overflowed: the run's own end (its signal, its exit code) is still the verdict.
  if (used + frame > capacity_) return;
  auto* at = reinterpret_cast<std::uint8_t*>(buffer_ + used);
  for (std::size_t i = 0; i < wire::kFrameHeaderBytes; ++i) at[i] = static_cast<std::uint8_t>(size >> (8 * i));
  message.SerializeWithCachedSizesToArray(at + wire::kFrameHeaderBytes);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  committed_->store(used + frame, std::memory_order_release);
}

void ControlChannel::write_to_socket(const proto::HookMessage& message) {
  scratch_.clear();
  wire::append_frame(scratch_, message);
  write_all(scratch_.data(), scratch_.size());
}

void ControlChannel::use_event_buffer(char* mapping, std::size_t bytes) {
  auto* header = reinterpret_cast<wire::EventBufferHeader*>(mapping);
  buffer_ = mapping + wire::kEventBufferHeaderBytes;
  capacity_ = wire::frame_capacity(bytes);
  committed_ = &header->committed;
  overflowed_ = &header->overflowed;
  intact_ = &header->intact;
  kept_ = KeptSteps(buffer_ + capacity_, wire::kept_steps_bytes(bytes));
  // own_buffer_ is kept: freeing it would unmap it, a system call the run does not need.
}

std::uint64_t ControlChannel::intact_bytes() const {
  return intact_ != nullptr ? intact_->load(std::memory_order_relaxed) : 0;
}

void ControlChannel::write_all(const char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd_, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw std::runtime_error(std::string("exocheck: control channel write failed: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
}

void ControlChannel::read_exactly(char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd_, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) throw std::runtime_error("exocheck: control channel closed before a run request arrived");
    if (n < 0) throw std::runtime_error(std::string("exocheck: control channel read failed: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

proto::RunRequest ControlChannel::read_request() {
  auto request = next_request();
  if (!request) throw std::runtime_error("exocheck: control channel closed before a run request arrived");
  return std::move(*request);
}

std::optional<proto::RunRequest> ControlChannel::next_request() {
  ReceivedBytes& in = *received_;
  // The header and, for any request of a usual size, the body come in one read.
  while (in.end - in.begin < wire::kFrameHeaderBytes) {
    if (!receive_more()) {
      if (in.end == in.begin) return std::nullopt;  // closed between requests
      throw std::runtime_error("exocheck: control channel closed before a run request arrived");
    }
  }
  const std::uint32_t size = wire::read_frame_header(std::string_view(in.bytes + in.begin, wire::kFrameHeaderBytes));
  if (size > wire::kMaxFrameBytes) {
    throw std::runtime_error("exocheck: run request frame of " + std::to_string(size) + " bytes is too large");
  }
  in.begin += wire::kFrameHeaderBytes;
  proto::RunRequest request;
  bool parsed;
  if (size <= ReceivedBytes::kCapacity) {
    while (in.end - in.begin < size) {
      if (!receive_more()) throw std::runtime_error("exocheck: control channel closed before a run request arrived");
    }
    parsed = request.ParseFromArray(in.bytes + in.begin, static_cast<int>(size));
    in.begin += size;
  } else {
    // Larger than what is read ahead: the rest straight from the socket.
    std::string payload(in.bytes + in.begin, in.end - in.begin);
    in.begin = in.end = 0;
    const std::size_t had = payload.size();
    payload.resize(size);
    read_exactly(payload.data() + had, size - had);
    parsed = request.ParseFromString(payload);
  }
  if (!parsed) throw std::runtime_error("exocheck: unparseable run request frame");
  if (request.protocol_version() != wire::kProtocolVersion) {
    throw std::runtime_error("exocheck: run request speaks protocol " + std::to_string(request.protocol_version()) +
                             ", this hook speaks " + std::to_string(wire::kProtocolVersion));
  }
  return request;
}

bool ControlChannel::receive_more() {
  ReceivedBytes& in = *received_;
  if (in.begin == in.end) in.begin = in.end = 0;
  if (in.end == ReceivedBytes::kCapacity) {
    std::memmove(in.bytes, in.bytes + in.begin, in.end - in.begin);
    in.end -= in.begin;
    in.begin = 0;
  }
  for (;;) {
    const ssize_t n = ::read(fd_, in.bytes + in.end, ReceivedBytes::kCapacity - in.end);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(std::string("exocheck: control channel read failed: ") + std::strerror(errno));
    in.end += static_cast<std::size_t>(n);
    return n > 0;
  }
}

void ControlChannel::keep_received_in(ReceivedBytes* place) {
  if (place == received_) return;
  *place = *received_;
  received_ = place;
}

}  // namespace exocheck::detail
