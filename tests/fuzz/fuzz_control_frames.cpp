// libFuzzer target: what a subject writes on its control channel, as the agent's runner reads it.
// The subject is the user's program, and a program with a bug in it may write anything: garbage,
// a frame cut short, an oversized length, events out of order. The runner must turn every such
// stream into a protocol error or a result, never a crash. The first byte sets the size of the
// reads the rest arrives in (a stream arrives in reads of any size); the rest is the stream.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "hook_conversation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace exocheck::agent;
  if (size == 0) return 0;
  const std::size_t read_size = 1 + data[0] % 97;
  const bool defer_prefix = (data[0] & 0x80) != 0;
  ++data;
  --size;

  RunSpec spec;
  spec.defer_prefix_events = defer_prefix;
  for (int step = 0; step < 3; ++step) spec.request.add_prefix("0#" + std::to_string(step + 1));

  // From a socket, read by read.
  RunReport report;
  HookConversation conversation(report);
  conversation.defer_for(spec);
  for (std::size_t at = 0; at < size && !conversation.done(); at += read_size) {
    const std::size_t bytes = std::min(read_size, size - at);
    std::memcpy(conversation.prepare(bytes), data + at, bytes);
    conversation.received(bytes);
  }
  if (!conversation.failed()) conversation.complete_events();

  // From the shared event buffer, in place.
  RunReport in_place;
  HookConversation from_buffer(in_place);
  from_buffer.defer_for(spec);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t taken = from_buffer.take_frames(bytes);
  if (taken > size) __builtin_trap();  // it may not claim bytes it was not given
  if (!from_buffer.failed()) from_buffer.complete_events();
  return 0;
}
