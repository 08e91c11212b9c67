#pragma once
// Cuts the byte stream of the control channel into frames (frame.hpp). Bytes arrive in reads of
// any size: one read may hold many frames, and one frame may span many reads.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace exocheck::agent {

class FrameDecoder {
 public:
  /// What next() found.
  enum class Status {
    frame,       ///< a complete frame: its payload is in the out-parameter
    incomplete,  ///< more bytes are needed
    oversized,   ///< the next header announces more than kMaxFrameBytes (see oversized_length())
  };

  /// Room for `bytes` more bytes at the end of the buffer; fill it, then commit().
  char* prepare(std::size_t bytes);
  /// Declares that `bytes` bytes were written at the pointer prepare() returned.
  void commit(std::size_t bytes) { end_ += bytes; }

  /// Takes the next complete frame. `payload` stays valid until the next prepare().
  Status next(std::string_view& payload);

  /// The length the oversized header announced.
  std::uint32_t oversized_length() const { return oversized_length_; }
  /// Bytes received but not yet taken as frames.
  std::size_t buffered() const { return end_ - begin_; }

 private:
  std::unique_ptr<char[]> data_;
  std::size_t capacity_ = 0;
  std::size_t begin_ = 0;  // first byte not yet taken
  std::size_t end_ = 0;    // one past the last byte received
  std::uint32_t oversized_length_ = 0;
};

}  // namespace exocheck::agent
