#pragma once
// Protobuf's wire format read field by field, for decoders that fill structures of their own
// instead of messages (serialized_events.cpp). It accepts what protobuf's parser accepts, and
// nothing else: unknown fields (groups too) are skipped, a tag of 0, an end-group tag outside its
// group, a varint longer than ten bytes or a length past the end fail.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace exocheck::coordinator {

class WireReader {
 public:
  enum WireType : std::uint32_t {
    kVarint = 0,
    kFixed64 = 1,
    kLengthDelimited = 2,
    kStartGroup = 3,
    kEndGroup = 4,
    kFixed32 = 5
  };

  /// `depth`: the messages this one is nested in (a field's submessage: 1), which count against
  /// protobuf's limit on nesting as its groups do.
  explicit WireReader(std::string_view bytes, int depth = 0)
      : at_(bytes.data()), end_(bytes.data() + bytes.size()), depth_(depth) {}

  bool at_end() const { return at_ == end_; }

  /// The next field's number and wire type; false when the bytes hold no valid tag there. As
  /// protobuf's parser reads a tag: at most five bytes, what lies past 32 bits dropped.
  bool tag(std::uint32_t& field, std::uint32_t& wire_type) {
    std::uint64_t value = 0;
    if (!varint(value, 5) || (value & UINT32_MAX) >> 3 == 0) return false;
    field = static_cast<std::uint32_t>((value & UINT32_MAX) >> 3);
    wire_type = static_cast<std::uint32_t>(value & 7);
    return true;
  }

  /// A varint of at most `max_bytes` bytes.
  bool varint(std::uint64_t& value, int max_bytes = 10) {
    value = 0;
    for (int shift = 0; shift < 7 * max_bytes && at_ != end_; shift += 7) {
      const auto byte = static_cast<unsigned char>(*at_++);
      value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;  // cut short, or too long
  }

  bool length_delimited(std::string_view& value) {
    std::uint64_t length = 0;
    if (!varint(length, 5) || length > INT32_MAX || length > static_cast<std::uint64_t>(end_ - at_)) return false;
    value = std::string_view(at_, static_cast<std::size_t>(length));
    at_ += length;
    return true;
  }

  /// Skips the value of a field of `field` and `wire_type` whose tag was just read.
  bool skip(std::uint32_t field, std::uint32_t wire_type) { return skip_at(field, wire_type, depth_); }

 private:
  // Protobuf's parser gives up on messages and groups nested deeper than its recursion limit.
  static constexpr int kMaxDepth = 100;

  bool skip_at(std::uint32_t field, std::uint32_t wire_type, int depth) {
    switch (wire_type) {
      case kVarint: {
        std::uint64_t ignored = 0;
        return varint(ignored);
      }
      case kFixed64:
        return advance(8);
      case kLengthDelimited: {
        std::string_view ignored;
        return length_delimited(ignored);
      }
      case kStartGroup:
        return skip_group(field, depth);
      case kFixed32:
        return advance(4);
      default:  // an end-group tag here is outside its group; 6 and 7 are no wire type
        return false;
    }
  }

  bool advance(std::size_t bytes) {
    if (static_cast<std::size_t>(end_ - at_) < bytes) return false;
    at_ += bytes;
    return true;
  }

  bool skip_group(std::uint32_t group, int depth) {
    if (depth >= kMaxDepth) return false;
    for (std::uint32_t field = 0, wire_type = 0; tag(field, wire_type);) {
      if (wire_type == kEndGroup) return field == group;
      if (!skip_at(field, wire_type, depth + 1)) return false;
    }
    return false;
  }

  const char* at_;
  const char* end_;
  int depth_;
};

}  // namespace exocheck::coordinator
