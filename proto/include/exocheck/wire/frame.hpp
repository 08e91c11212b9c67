#pragma once
// Length-delimited framing of the control channel (control.proto): a 4-byte little-endian
// length, then that many bytes of one serialized protobuf message.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace exocheck::wire {

/// Version of the hook <-> agent conversation; RunRequest, the hook's hello and note, and every
/// trace file carry it. Every change of what a run request, an event or a result carries raises it:
/// a program built against another hook is refused (agent/runner/src/hook_attachment.cpp), never
/// run with requests it would half read.
///   1: up to the specification monitors' first form (RunRequest fields 1-18).
///   2: the monitors' lanes (Notification.lanes, RunRequest.sleep_notifying_lanes).
inline constexpr std::uint32_t kProtocolVersion = 2;

/// Largest frame either side accepts; anything longer is a protocol error, not an allocation.
inline constexpr std::uint32_t kMaxFrameBytes = 16u << 20;

/// Name of the environment variable that hands the control socket to the subject.
inline constexpr const char* kControlFdVariable = "EXOCHECK_CONTROL_FD";

inline constexpr std::size_t kFrameHeaderBytes = 4;

/// Appends the frame header for a payload of `size` bytes to `out`.
inline void append_frame_header(std::string& out, std::uint32_t size) {
  char header[kFrameHeaderBytes] = {static_cast<char>(size & 0xff), static_cast<char>((size >> 8) & 0xff),
                                    static_cast<char>((size >> 16) & 0xff), static_cast<char>((size >> 24) & 0xff)};
  out.append(header, kFrameHeaderBytes);
}

/// Reads the payload length of a frame header; `header` holds at least kFrameHeaderBytes bytes.
inline std::uint32_t read_frame_header(std::string_view header) {
  auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(header[i])); };
  return byte(0) | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24);
}

/// Appends `message` (any protobuf message) as one frame to `out`.
template <typename Message>
void append_frame(std::string& out, const Message& message) {
  const auto size = static_cast<std::uint32_t>(message.ByteSizeLong());
  append_frame_header(out, size);
  const auto offset = out.size();
  out.resize(offset + size);
  message.SerializeWithCachedSizesToArray(reinterpret_cast<std::uint8_t*>(out.data() + offset));
}

}  // namespace exocheck::wire
