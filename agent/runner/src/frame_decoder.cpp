#include "frame_decoder.hpp"

#include <algorithm>
#include <cstring>

#include "exocheck/wire/frame.hpp"

namespace exocheck::agent {

char* FrameDecoder::prepare(std::size_t bytes) {
  const std::size_t pending = end_ - begin_;
  if (capacity_ - end_ >= bytes) return data_.get() + end_;
  // Move the unfinished frame to the front first; grow only if that is not enough.
  if (begin_ > 0) {
    std::memmove(data_.get(), data_.get() + begin_, pending);
    begin_ = 0;
    end_ = pending;
    if (capacity_ - end_ >= bytes) return data_.get() + end_;
  }
  const std::size_t capacity = std::max(capacity_ * 2, pending + bytes);
  auto data = std::make_unique_for_overwrite<char[]>(capacity);
  if (pending > 0) std::memcpy(data.get(), data_.get(), pending);
  data_ = std::move(data);
  capacity_ = capacity;
  return data_.get() + end_;
}

FrameDecoder::Status FrameDecoder::next(std::string_view& payload) {
  const std::size_t pending = end_ - begin_;
  if (pending < wire::kFrameHeaderBytes) return Status::incomplete;
  const std::uint32_t length = wire::read_frame_header({data_.get() + begin_, wire::kFrameHeaderBytes});
  if (length > wire::kMaxFrameBytes) {
    oversized_length_ = length;
    return Status::oversized;
  }
  if (pending - wire::kFrameHeaderBytes < length) return Status::incomplete;
  payload = {data_.get() + begin_ + wire::kFrameHeaderBytes, length};
  begin_ += wire::kFrameHeaderBytes + length;
  if (begin_ == end_) begin_ = end_ = 0;  // the buffer is empty: start over at the front
  return Status::frame;
}

}  // namespace exocheck::agent
