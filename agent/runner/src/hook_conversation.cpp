#include "hook_conversation.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <iterator>
#include <optional>

#include "exocheck/wire/frame.hpp"

namespace exocheck::agent {

void HookConversation::received(std::size_t bytes) {
  decoder_.commit(bytes);
  std::string_view payload;
  while (!done()) {
    switch (decoder_.next(payload)) {
      case FrameDecoder::Status::incomplete:
        return;
      case FrameDecoder::Status::oversized:
        fail(fmt::format("oversized frame of {} bytes", decoder_.oversized_length()));
        return;
      case FrameDecoder::Status::frame:
        handle(payload);
        break;
    }
  }
}

std::size_t HookConversation::take_frames(std::string_view bytes) {
  std::size_t taken = 0;
  // Each header is read once and its length checked against `bytes`: a run writing the buffer
  // meanwhile can make a frame unparseable, never make this read outside it.
  while (!done() && bytes.size() - taken >= wire::kFrameHeaderBytes) {
    const std::uint32_t length = wire::read_frame_header(bytes.substr(taken, wire::kFrameHeaderBytes));
    if (length > wire::kMaxFrameBytes) {
      fail(fmt::format("oversized frame of {} bytes", length));
      break;
    }
    if (bytes.size() - taken - wire::kFrameHeaderBytes < length) break;
    handle(bytes.substr(taken + wire::kFrameHeaderBytes, length));
    taken += wire::kFrameHeaderBytes + length;
  }
  return taken;
}

namespace {

/// The first byte of a serialized HookMessage whose body is field `field`, length-delimited.
constexpr unsigned char body_tag(int field) {
  return static_cast<unsigned char>((field << 3) | 2);
}

/// The body's bytes of a frame that holds nothing but HookMessage's field `field` (an event, a
/// result), or nullopt for any other frame (those take the general path).
std::optional<std::string_view> body_bytes_of(std::string_view payload, int field) {
  if (payload.empty() || static_cast<unsigned char>(payload[0]) != body_tag(field)) return std::nullopt;
  std::uint64_t length = 0;
  std::size_t at = 1;
  for (int shift = 0; at < payload.size() && shift < 35; shift += 7) {
    const auto byte = static_cast<unsigned char>(payload[at++]);
    length |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      if (length != payload.size() - at) return std::nullopt;
      return payload.substr(at);
    }
  }
  return std::nullopt;
}

/// The step of a serialized Event: its field 1, which protobuf writes first; nullopt if absent.
std::optional<std::uint32_t> step_of(std::string_view event) {
  constexpr unsigned char kStepTag = (proto::Event::kStepFieldNumber << 3) | 0;
  if (event.empty() || static_cast<unsigned char>(event[0]) != kStepTag) {
    // Step 0 is proto3's default and is not written at all.
    if (event.empty() || static_cast<unsigned char>(event[0]) > kStepTag) return 0;
    return std::nullopt;
  }
  std::uint64_t value = 0;
  for (std::size_t at = 1, shift = 0; at < event.size() && shift < 35; ++at, shift += 7) {
    const auto byte = static_cast<unsigned char>(event[at]);
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return static_cast<std::uint32_t>(value);
  }
  return std::nullopt;
}

}  // namespace

void HookConversation::handle(std::string_view payload) {
  // Events are nearly every frame: parsed straight into their place in the report, each costs one
  // allocation, one swap and one free less than through message_.
  if (const auto event_bytes = body_bytes_of(payload, proto::HookMessage::kEventFieldNumber)) {
    if (!report_.hello_seen) {
      fail("event frame ahead of the hello", ChannelFault::exocheck);
      return;
    }
    if (next_step_ < deferred_below_) {
      const auto step = step_of(*event_bytes);
      if (!step) {
        fail(fmt::format("unparseable frame of {} bytes", payload.size()));
      } else if (take_step(*step)) {
        defer(*event_bytes);
      }
      return;
    }
    auto& event = add_event(report_.events);
    if (!event.ParseFromArray(event_bytes->data(), static_cast<int>(event_bytes->size()))) {
      report_.events.pop_back();
      fail(fmt::format("unparseable frame of {} bytes", payload.size()));
    } else if (!take_step(event.step())) {
      report_.events.pop_back();
    }
    return;
  }
  // Once per run: parsed into the report's result, whose strings and lists the last run left
  // (a HookMessage's result is a new message each time).
  if (const auto result_bytes = body_bytes_of(payload, proto::HookMessage::kResultFieldNumber)) {
    if (!report_.hello_seen) {
      fail("result frame ahead of the hello", ChannelFault::exocheck);
    } else if (!report_.result.ParseFromArray(result_bytes->data(), static_cast<int>(result_bytes->size()))) {
      fail(fmt::format("unparseable frame of {} bytes", payload.size()));
    } else {
      finished_ = true;
    }
    return;
  }
  message_.Clear();
  if (!message_.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
    fail(fmt::format("unparseable frame of {} bytes", payload.size()));
    return;
  }
  switch (message_.body_case()) {
    case proto::HookMessage::kHello:
      handle_hello(message_.hello());
      return;
    case proto::HookMessage::kEvent:
      handle_event(*message_.mutable_event());
      return;
    case proto::HookMessage::kResult:
      handle_result(*message_.mutable_result());
      return;
    case proto::HookMessage::kReady:
    case proto::HookMessage::kEnd:
      fail(fmt::format("fork-server frame of {} bytes in a run's conversation", payload.size()),
           ChannelFault::exocheck);
      return;
    case proto::HookMessage::BODY_NOT_SET:
      fail(fmt::format("frame of {} bytes with neither hello, event nor result", payload.size()));
      return;
  }
}

void HookConversation::handle_hello(const proto::Hello& hello) {
  if (report_.hello_seen) {
    fail("second hello frame", ChannelFault::exocheck);
  } else if (hello.protocol_version() != wire::kProtocolVersion) {
    fail(fmt::format("carries an exocheck hook that speaks protocol version {}, this exocheck speaks version {}: "
                     "rebuild it against this exocheck's hook (exocheck::hook)",
                     hello.protocol_version(), wire::kProtocolVersion),
         ChannelFault::other_version);
  } else {
    report_.hello_seen = true;
  }
}

void HookConversation::handle_event(proto::Event& event) {
  if (!report_.hello_seen) {
    fail("event frame ahead of the hello", ChannelFault::exocheck);
    return;
  }
  if (!take_step(event.step())) return;
  // Deferred events stay in step order, however they arrived.
  if (next_step_ <= deferred_below_) {
    defer(event.SerializeAsString());
  } else {
    add_event(report_.events).Swap(&event);
  }
}

void HookConversation::handle_result(proto::RunResult& result) {
  if (!report_.hello_seen) {
    fail("result frame ahead of the hello", ChannelFault::exocheck);
    return;
  }
  report_.result.Swap(&result);
  finished_ = true;
}

proto::Event& HookConversation::add_event(std::vector<proto::Event>& events) {
  auto& spare = report_.spare_events;
  if (spare.empty()) return events.emplace_back();
  // Moving a message swaps its insides: the spare one's allocations come along.
  events.push_back(std::move(spare.back()));
  spare.pop_back();
  return events.back();
}

void HookConversation::defer(std::string_view event_bytes) {
  report_.deferred_events.append(event_bytes);
  report_.deferred_event_ends.push_back(report_.deferred_events.size());
}

bool HookConversation::take_step(std::uint32_t step) {
  if (step != next_step_) {
    fail(fmt::format("event for step {} where step {} was due", step, next_step_), ChannelFault::exocheck);
    return false;
  }
  ++next_step_;
  return true;
}

void HookConversation::complete_events() {
  const auto& ends = report_.deferred_event_ends;
  if (ends.empty()) return;
  std::vector<proto::Event> events;
  events.reserve(ends.size() + report_.events.size());
  for (std::size_t i = 0, begin = 0; i < ends.size(); begin = ends[i++]) {
    const std::string_view bytes = std::string_view(report_.deferred_events).substr(begin, ends[i] - begin);
    if (!add_event(events).ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      fail(fmt::format("unparseable event of {} bytes for step {}", bytes.size(), i));
      events.pop_back();
      break;
    }
  }
  std::move(report_.events.begin(), report_.events.end(), std::back_inserter(events));
  report_.events = std::move(events);
  report_.deferred_events.clear();
  report_.deferred_event_ends.clear();
}

void HookConversation::fail(std::string problem, ChannelFault fault) {
  problem_ = std::move(problem);
  fault_ = fault;
}

}  // namespace exocheck::agent
