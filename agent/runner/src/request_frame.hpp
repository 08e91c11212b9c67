#pragma once
// The frame of a run request as the runner sends it, stamped with the protocol version.

#include <cstdint>
#include <string>

#include "exocheck/wire/frame.hpp"
#include "proto/control.pb.h"

namespace exocheck::agent {

/// Appends `request` to `out` as one frame whose protocol_version is wire::kProtocolVersion. The
/// version is written after the request's own fields rather than into a copy of the request (its
/// prefix and sleep set are strings, copied per run): of a scalar field that occurs twice on the
/// wire, a parser keeps the last value.
inline void append_request_frame(std::string& out, const proto::RunRequest& request) {
  std::string version(1, static_cast<char>(proto::RunRequest::kProtocolVersionFieldNumber << 3));  // varint
  for (std::uint32_t value = wire::kProtocolVersion;; value >>= 7) {
    if (value < 0x80) {
      version.push_back(static_cast<char>(value));
      break;
    }
    version.push_back(static_cast<char>((value & 0x7f) | 0x80));
  }
  const auto size = static_cast<std::uint32_t>(request.ByteSizeLong());
  wire::append_frame_header(out, static_cast<std::uint32_t>(size + version.size()));
  const auto offset = out.size();
  out.resize(offset + size);
  request.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(out.data() + offset));
  out += version;
}

}  // namespace exocheck::agent
