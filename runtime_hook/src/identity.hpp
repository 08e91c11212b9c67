#pragma once
// Names that survive re-execution (DESIGN.md, "Model"): actors by spawn-tree path, messages by
// sender and send counter.

#include <cstdint>
#include <string>

namespace exocheck::detail {

/// "0.2" for the 2nd child of "0"; "3" for the 4th actor spawned by main (parent_id empty).
inline std::string actor_id(const std::string& parent_id, std::uint64_t ordinal) {
  return parent_id.empty() ? std::to_string(ordinal) : parent_id + "." + std::to_string(ordinal);
}

/// "0.1#3" for the 3rd message sent by actor "0.1"; "env#2" for main's 2nd.
inline std::string message_id(const std::string& sender_id, std::uint64_t ordinal) {
  return sender_id + "#" + std::to_string(ordinal);
}

inline const char* const kEnvironment = "env";

class ActorCell;
struct Envelope;
/// Names `envelope` as `sender`'s next message (its ordinal kept too: a recording writes the
/// number, not the name). In actor.cpp.
void name_next_message(Envelope& envelope, ActorCell& sender);

}  // namespace exocheck::detail
