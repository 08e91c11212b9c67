#pragma once
// What a receiver's guards would have said earlier: the views of its guards (those declared with
// one) before its latest steps, and the messages sent to it that those views reject. Race
// analysis then skips the receiver's steps at which such a message could not have been received,
// instead of running a schedule that finds it held back (dependency.md, "Guards and races").

#include <cstddef>
#include <cstdint>

#include "wire_messages.hpp"

namespace exocheck::detail {

class ActorCell;
struct Envelope;

/// How many of an actor's latest steps keep their views: races look back at the latest steps
/// first, and a step further back is only unknown (a race there is tried, as without views).
inline constexpr std::size_t kGuardHistorySteps = 32;

/// Keeps the views of `cell`'s guards before its step `step`. Nothing for an actor without guards
/// with views, nor for one awaiting a reply (only the reply is enabled then, whatever its guards say).
void remember_guard_views(ActorCell& cell, std::uint32_t step);

/// Adds to `sent` (the record of `envelope`'s sending) the receiver's kept steps whose views
/// reject it.
void note_rejections(const Envelope& envelope, proto::SentMessage& sent);

}  // namespace exocheck::detail
