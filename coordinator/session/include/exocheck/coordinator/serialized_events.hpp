#pragma once
// A run's events as the hook serialized them (trace.proto's Event), decoded straight into the
// engine's Execution: what to_execution() makes of the parsed messages, without the messages.
// For lean results (wire/result_events.hpp), the commonest kind, parsing the messages and
// converting them was the largest part of the agent's work per run. Every field is checked as
// protobuf's parser checks it (the wire format, UTF-8 in strings), so that bytes decode here
// exactly when they parse there; the fields exploration does not read (text for people) are
// checked and skipped.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exocheck/engine/execution.hpp"
#include "proto/control.pb.h"

namespace exocheck::coordinator {

/// A run's serialized events, end to end in `bytes`; event i ends at ends[i] and starts where
/// event i - 1 ends (event 0 at 0).
struct SerializedEvents {
  std::string_view bytes;
  std::span<const std::size_t> ends;

  std::size_t size() const { return ends.size(); }
  std::string_view event(std::size_t i) const {
    const std::size_t begin = i == 0 ? 0 : ends[i - 1];
    return bytes.substr(begin, ends[i] - begin);
  }
};

/// One serialized event into `step` (its storage reused), and its step number. False when the
/// bytes are not an Event (`step` then holds part of it).
bool decode_step(std::string_view bytes, engine::Step& step, std::uint32_t& number);

/// The events from index `first` on (a lean result's: `first` is its prefix's length) with
/// `result`, into `execution` as to_execution() makes it of the same events parsed; its storage
/// is reused. Each event's step number must be its index. Returns what is wrong with the first
/// event that does not decode (`execution` then holds part of the run). Steps `execution` has
/// beyond this run's go to `spare`, if given, and steps it lacks come from there first: a caller
/// decoding run after run then allocates for its longest run only.
std::optional<std::string> decode_execution(SerializedEvents events, std::size_t first, const proto::RunResult& result,
                                            engine::Execution& execution, std::vector<engine::Step>* spare = nullptr);

}  // namespace exocheck::coordinator
