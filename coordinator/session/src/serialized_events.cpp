#include "exocheck/coordinator/serialized_events.hpp"

#include <algorithm>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/wire/utf8.hpp"
#include "proto/trace.pb.h"
#include "wire_reader.hpp"

namespace exocheck::coordinator {
namespace {

using Type = WireReader::WireType;

/// Reads the fields of the message in `bytes`, nested in `depth` others, in turn:
/// `take(field, wire_type, reader)` reads the value of each (skipping those it does not know) and
/// returns false when it is malformed.
template <typename Take>
bool for_each_field(std::string_view bytes, int depth, Take take) {
  WireReader reader(bytes, depth);
  std::uint32_t field = 0;
  std::uint32_t wire_type = 0;
  while (!reader.at_end()) {
    if (!reader.tag(field, wire_type) || !take(field, wire_type, reader)) return false;
  }
  return true;
}

bool read_string(WireReader& reader, std::string_view& text) {
  return reader.length_delimited(text) && wire::is_utf8(text);
}

bool skip_string(WireReader& reader) {
  std::string_view text;
  return read_string(reader, text);
}

bool assign_string(WireReader& reader, std::string& into) {
  std::string_view text;
  if (!read_string(reader, text)) return false;
  into.assign(text);
  return true;
}

/// Element `used` of `list`, made if need be; `used` counts it. Lists are cut to `used` at the end
/// of a step, so a reused step's elements keep their strings' storage.
template <typename T>
T& next_of(std::vector<T>& list, std::size_t& used) {
  if (used == list.size()) list.emplace_back();
  return list[used++];
}

/// An ActorType, as protobuf's parser takes it: refused when one of its strings is not UTF-8.
bool strings_valid(std::string_view bytes) {
  return for_each_field(bytes, 1, [](std::uint32_t field, std::uint32_t wire_type, WireReader& reader) {
    const bool string = field == proto::ActorType::kActorFieldNumber || field == proto::ActorType::kTypeFieldNumber;
    return string && wire_type == Type::kLengthDelimited ? skip_string(reader) : reader.skip(field, wire_type);
  });
}

bool decode_clock_entry(std::string_view bytes, std::pair<std::string, std::uint32_t>& entry) {
  entry.first.clear();
  entry.second = 0;
  return for_each_field(bytes, 1, [&](std::uint32_t field, std::uint32_t wire_type, WireReader& reader) {
    if (field == proto::ClockEntry::kActorFieldNumber && wire_type == Type::kLengthDelimited)
      return assign_string(reader, entry.first);
    if (field == proto::ClockEntry::kCountFieldNumber && wire_type == Type::kVarint) {
      std::uint64_t count = 0;
      if (!reader.varint(count)) return false;
      entry.second = static_cast<std::uint32_t>(count);
      return true;
    }
    return reader.skip(field, wire_type);
  });
}

/// One uint32 of a repeated field, as protobuf's parser takes it: past 32 bits dropped.
bool append_uint32(WireReader& reader, std::vector<std::uint32_t>& into) {
  std::uint64_t value = 0;
  if (!reader.varint(value)) return false;
  into.push_back(static_cast<std::uint32_t>(value));
  return true;
}

/// A repeated uint32 field's element, or its packed run of elements (protobuf accepts both).
bool read_uint32s(WireReader& reader, std::uint32_t wire_type, std::vector<std::uint32_t>& into) {
  if (wire_type == Type::kVarint) return append_uint32(reader, into);
  std::string_view packed;
  if (!reader.length_delimited(packed)) return false;
  WireReader elements(packed);
  while (!elements.at_end()) {
    if (!append_uint32(elements, into)) return false;
  }
  return true;
}

bool take_submessage(WireReader& reader, auto decode, auto& into) {
  std::string_view bytes;
  return reader.length_delimited(bytes) && decode(bytes, into);
}

bool decode_sent(std::string_view bytes, engine::SentMessage& sent) {
  sent.id.clear();
  sent.receiver.clear();
  sent.timer = false;
  sent.quiescent = false;
  sent.rejected_at.clear();
  std::size_t start_entries = 0;
  const bool decoded = for_each_field(bytes, 1, [&](std::uint32_t field, std::uint32_t wire_type, WireReader& reader) {
    if (field == proto::SentMessage::kTimerFieldNumber && wire_type == Type::kVarint) {
      std::uint64_t kind = 0;
      if (!reader.varint(kind)) return false;
      sent.timer = kind != 0;
      return true;
    }
    if (field == proto::SentMessage::kQuiescentFieldNumber && wire_type == Type::kVarint) {
      std::uint64_t value = 0;
      if (!reader.varint(value)) return false;
      sent.quiescent = value != 0;
      return true;
    }
    if (field == proto::SentMessage::kRejectedAtFieldNumber &&
        (wire_type == Type::kVarint || wire_type == Type::kLengthDelimited)) {
      return read_uint32s(reader, wire_type, sent.rejected_at);
    }
    if (wire_type != Type::kLengthDelimited) return reader.skip(field, wire_type);
    switch (field) {
      case proto::SentMessage::kIdFieldNumber:
        return assign_string(reader, sent.id);
      case proto::SentMessage::kReceiverFieldNumber:
        return assign_string(reader, sent.receiver);
      case proto::SentMessage::kTypeFieldNumber:
      case proto::SentMessage::kDuplicateOfFieldNumber:  // strings: protobuf refuses them when not UTF-8
        return skip_string(reader);
      case proto::SentMessage::kStartClockFieldNumber:
        return take_submessage(reader, decode_clock_entry, next_of(sent.start_clock, start_entries));
      default:
        return reader.skip(field, wire_type);
    }
  });
  sent.start_clock.resize(start_entries);
  return decoded;
}

/// How many elements of each list a step being decoded has so far, and what its handler chose.
struct ListSizes {
  std::size_t sent = 0, created = 0, enabled = 0, clock = 0, dead_letters = 0, start_clock = 0, monitor_lanes = 0;
  std::vector<std::uint32_t> ranges, values;  ///< empty, allocating nothing, for a step without choices
};

bool decode_choice(std::string_view bytes, ListSizes& sizes) {
  std::uint64_t range = 0;
  std::uint64_t value = 0;
  const bool decoded = for_each_field(bytes, 1, [&](std::uint32_t field, std::uint32_t wire_type, WireReader& reader) {
    if (wire_type != Type::kVarint) return reader.skip(field, wire_type);
    if (field == proto::Choice::kRangeFieldNumber) return reader.varint(range);
    if (field == proto::Choice::kValueFieldNumber) return reader.varint(value);
    return reader.skip(field, wire_type);
  });
  sizes.ranges.push_back(static_cast<std::uint32_t>(range));
  sizes.values.push_back(static_cast<std::uint32_t>(value));
  return decoded;
}

/// A notification's lanes into the step's (its monitor's name when it has none: Notification.lanes).
bool decode_notification(std::string_view bytes, engine::Step& step, ListSizes& sizes) {
  std::string monitor;
  const std::size_t before = sizes.monitor_lanes;
  const bool decoded = for_each_field(bytes, 1, [&](std::uint32_t field, std::uint32_t wire_type, WireReader& reader) {
    if (wire_type != Type::kLengthDelimited) return reader.skip(field, wire_type);
    if (field == proto::Notification::kMonitorFieldNumber) return assign_string(reader, monitor);
    if (field == proto::Notification::kLanesFieldNumber)
      return assign_string(reader, next_of(step.monitor_lanes, sizes.monitor_lanes));
    return field == proto::Notification::kEventFieldNumber ? skip_string(reader) : reader.skip(field, wire_type);
  });
  if (sizes.monitor_lanes == before) next_of(step.monitor_lanes, sizes.monitor_lanes) = std::move(monitor);
  return decoded;
}

bool take_varint_field(std::uint32_t field, WireReader& reader, engine::Step& step, std::uint32_t& number) {
  std::uint64_t value = 0;
  if (!reader.varint(value)) return false;
  switch (field) {
    case proto::Event::kStepFieldNumber:
      number = static_cast<std::uint32_t>(value);
      break;
    case proto::Event::kOutcomeFieldNumber:
      step.failed = static_cast<std::int32_t>(value) != proto::STEP_OK;  // an open enum: any value is kept
      break;
    case proto::Event::kDestroyedFieldNumber:
      step.destroyed = value != 0;
      break;
    case proto::Event::kReplyFieldNumber:
      step.reply = value != 0;
      break;
    case proto::Event::kTimerFieldNumber:
      step.timer = value != 0;
      break;
    case proto::Event::kQuiescentFieldNumber:
      step.quiescent = value != 0;
      break;
    default:  // an unknown field: skipped, which reading it did
      break;
  }
  return true;
}

bool take_length_delimited_field(std::uint32_t field, WireReader& reader, engine::Step& step, ListSizes& sizes) {
  switch (field) {
    case proto::Event::kActorFieldNumber:
      return assign_string(reader, step.actor);
    case proto::Event::kMessageFieldNumber:
      return assign_string(reader, step.message);
    case proto::Event::kSenderFieldNumber:
    case proto::Event::kTypeFieldNumber:
    case proto::Event::kSummaryFieldNumber:
    case proto::Event::kDetailFieldNumber:
      return skip_string(reader);
    case proto::Event::kClockFieldNumber:
      return take_submessage(reader, decode_clock_entry, next_of(step.clock, sizes.clock));
    case proto::Event::kStartClockFieldNumber:
      return take_submessage(reader, decode_clock_entry, next_of(step.start_clock, sizes.start_clock));
    case proto::Event::kSentFieldNumber:
      return take_submessage(reader, decode_sent, next_of(step.sent, sizes.sent));
    case proto::Event::kCreatedFieldNumber:
      return assign_string(reader, next_of(step.created, sizes.created));
    case proto::Event::kEnabledFieldNumber:
      return assign_string(reader, next_of(step.enabled, sizes.enabled));
    case proto::Event::kDeadLettersFieldNumber:
    case proto::Event::kCancelledFieldNumber:  // withdrawn messages are lost in their step as dead letters are
      return assign_string(reader, next_of(step.dead_letters, sizes.dead_letters));
    case proto::Event::kChoicesFieldNumber:
      return take_submessage(reader, decode_choice, sizes);
    case proto::Event::kLostFieldNumber:  // strings and messages of strings: refused when not UTF-8
      return skip_string(reader);
    case proto::Event::kNotificationsFieldNumber: {  // on the monitors' lanes (dependency.md)
      std::string_view bytes;
      step.notified = true;
      return reader.length_delimited(bytes) && decode_notification(bytes, step, sizes);
    }
    case proto::Event::kActorTypesFieldNumber: {
      std::string_view bytes;
      return reader.length_delimited(bytes) && strings_valid(bytes);
    }
    default:
      return reader.skip(field, Type::kLengthDelimited);
  }
}

// A step moved is its lists' storage moved: nothing is freed or allocated.
void resize_steps(std::vector<engine::Step>& steps, std::size_t size, std::vector<engine::Step>* spare) {
  if (spare != nullptr) {
    for (; steps.size() > size; steps.pop_back()) spare->push_back(std::move(steps.back()));
    for (; steps.size() < size && !spare->empty(); spare->pop_back()) steps.push_back(std::move(spare->back()));
  }
  steps.resize(size);
}

}  // namespace

bool decode_step(std::string_view bytes, engine::Step& step, std::uint32_t& number) {
  number = 0;
  step.actor.clear();
  step.message.clear();
  step.destroyed = step.reply = step.failed = step.timer = step.quiescent = step.notified = false;
  ListSizes sizes;
  const bool decoded = for_each_field(bytes, 0, [&](std::uint32_t field, std::uint32_t wire_type, WireReader& reader) {
    // A known field with another wire type is an unknown one to protobuf: skipped.
    if (wire_type == Type::kVarint) return take_varint_field(field, reader, step, number);
    if (wire_type == Type::kLengthDelimited) return take_length_delimited_field(field, reader, step, sizes);
    return reader.skip(field, wire_type);
  });
  step.sent.resize(sizes.sent);
  step.created.resize(sizes.created);
  step.enabled.resize(sizes.enabled);
  step.clock.resize(sizes.clock);
  step.start_clock.resize(sizes.start_clock);
  step.dead_letters.resize(sizes.dead_letters);
  step.monitor_lanes.resize(sizes.monitor_lanes);
  take_choices(sizes.ranges, sizes.values, step);
  if (number == 0) step.actor.clear();  // step 0 is the environment's: no actor (to_execution)
  return decoded;
}

std::optional<std::string> decode_execution(SerializedEvents events, std::size_t first, const proto::RunResult& result,
                                            engine::Execution& execution, std::vector<engine::Step>* spare) {
  const std::size_t count = events.size();
  const std::size_t begin = std::min(first, count);
  // As to_execution(): steps start at the first event's step, step 0 goes to `initial`. A run
  // that made no step past those left out starts there too, with no step of its own (optimal
  // DPOR's run held back at its first wakeup entry: RunRequest.steps_held).
  execution.first_step = begin;
  const std::size_t step_one = std::max<std::size_t>(begin, 1);  // the index of steps[0]
  resize_steps(execution.steps, count > step_one ? count - step_one : 0, spare);
  for (std::size_t i = begin; i < count; ++i) {
    const std::string_view bytes = events.event(i);
    std::uint32_t number = 0;
    if (!decode_step(bytes, i == 0 ? execution.initial : execution.steps[i - step_one], number))
      return "unparseable event of " + std::to_string(bytes.size()) + " bytes for step " + std::to_string(i);
    if (number != i)
      return "event for step " + std::to_string(number) + " where step " + std::to_string(i) + " was due";
  }
  if (execution.first_step != 0 || begin == count) execution.initial = {};
  take_verdict(result, execution);
  return std::nullopt;
}

}  // namespace exocheck::coordinator
