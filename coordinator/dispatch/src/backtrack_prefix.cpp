#include "backtrack_prefix.hpp"

#include <cstdint>
#include <stdexcept>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

std::vector<std::string> backtrack_prefix(std::string_view request) {
  // Every request names a message; none is empty. An agent of a version that sent the request as
  // a message (field 2) sends none in this field.
  if (request.empty()) throw std::invalid_argument("an empty backtrack request (an agent of another version?)");
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(request.data()),
                                            static_cast<int>(request.size()));
  const auto prefix_tag =
      WireFormatLite::MakeTag(proto::BacktrackRequest::kPrefixFieldNumber, WireFormatLite::WIRETYPE_LENGTH_DELIMITED);
  const auto size = static_cast<int>(request.size());
  std::vector<std::string> prefix;
  // Every field is walked, not only the prefix's: a request cut short or garbled is refused here,
  // not by the agent it would be sent to.
  bool readable = true;
  while (readable && in.CurrentPosition() < size) {
    const auto tag = in.ReadTag();
    if (tag == prefix_tag) {
      std::uint32_t length = 0;
      readable = in.ReadVarint32(&length) && length <= static_cast<std::uint32_t>(size) &&
                 in.ReadString(&prefix.emplace_back(), static_cast<int>(length));
    } else {
      readable = tag != 0 && WireFormatLite::SkipField(&in, tag);
    }
  }
  if (!readable || in.CurrentPosition() != size) {
    throw std::invalid_argument("a backtrack request that is not one (" + std::to_string(request.size()) +
                                " bytes, unreadable at byte " + std::to_string(in.CurrentPosition()) + ")");
  }
  return prefix;
}

}  // namespace exocheck::coordinator
