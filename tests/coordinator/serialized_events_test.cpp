// decode_execution() against protobuf's parser followed by to_execution(): the same Execution
// from the same bytes, and the same bytes refused (cut short, mutated, invalid UTF-8), unknown
// fields of every wire type skipped.
#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/coordinator/serialized_events.hpp"

namespace exocheck::coordinator::testing {
namespace {

std::string random_text(std::mt19937& random) {
  static const std::vector<std::string> pieces{"0", ".1", "#3", "env", "Ping{n=1}", "é", "→", "😀", "", "0.1.2"};
  std::uniform_int_distribution<int> count(0, 3);
  std::uniform_int_distribution<std::size_t> piece(0, pieces.size() - 1);
  std::string text;
  for (int k = count(random); --k >= 0;) text += pieces[piece(random)];
  return text;
}

/// An event with every field the hook writes, each list 0 to 3 long (so that a reused step both
/// grows and shrinks its lists).
proto::Event random_event(std::mt19937& random, std::uint32_t step) {
  std::uniform_int_distribution<int> count(0, 3), flag(0, 1), outcome(0, 3);
  proto::Event event;
  event.set_step(step);
  event.set_actor(random_text(random));
  event.set_message(random_text(random));
  event.set_sender(random_text(random));
  event.set_type(random_text(random));
  event.set_summary(random_text(random));
  for (int k = count(random); --k >= 0;) {
    auto* entry = event.add_clock();
    entry->set_actor(random_text(random));
    entry->set_count(static_cast<std::uint32_t>(random() % 1000));
  }
  for (int k = count(random); --k >= 0;) {
    auto* sent = event.add_sent();
    sent->set_id(random_text(random));
    sent->set_receiver(random_text(random));
    sent->set_type(random_text(random));
    for (int r = count(random); --r >= 0;) sent->add_rejected_at(static_cast<std::uint32_t>(random() % 100'000));
    for (int r = count(random); --r >= 0;) {
      auto* seen = sent->add_start_clock();
      seen->set_actor(random_text(random));
      seen->set_count(static_cast<std::uint32_t>(random() % 1000));
    }
  }
  for (int k = count(random); --k >= 0;) {
    auto* seen = event.add_start_clock();
    seen->set_actor(random_text(random));
    seen->set_count(static_cast<std::uint32_t>(random() % 1000));
  }
  for (int k = count(random); --k >= 0;) event.add_created(random_text(random));
  for (int k = count(random); --k >= 0;) event.add_enabled(random_text(random));
  event.set_outcome(static_cast<proto::StepOutcome>(outcome(random)));
  if (event.outcome() != proto::STEP_OK) event.set_detail(random_text(random));
  event.set_destroyed(flag(random) == 1);
  for (int k = count(random); --k >= 0;) event.add_dead_letters(random_text(random));
  event.set_reply(flag(random) == 1);
  for (int k = count(random) - 1; --k >= 0;) {
    auto* notification = event.add_notifications();
    notification->set_monitor(random_text(random));
    notification->set_event(random_text(random));
  }
  return event;
}

void expect_same_step(const engine::Step& a, const engine::Step& b, const std::string& where) {
  EXPECT_EQ(a.actor, b.actor) << where;
  EXPECT_EQ(a.message, b.message) << where;
  ASSERT_EQ(a.sent.size(), b.sent.size()) << where;
  for (std::size_t i = 0; i < a.sent.size(); ++i) {
    EXPECT_EQ(a.sent[i].id, b.sent[i].id) << where;
    EXPECT_EQ(a.sent[i].receiver, b.sent[i].receiver) << where;
    EXPECT_EQ(a.sent[i].rejected_at, b.sent[i].rejected_at) << where;
    EXPECT_EQ(a.sent[i].start_clock, b.sent[i].start_clock) << where;
  }
  EXPECT_EQ(a.start_clock, b.start_clock) << where;
  EXPECT_EQ(a.created, b.created) << where;
  EXPECT_EQ(a.enabled, b.enabled) << where;
  EXPECT_EQ(a.clock, b.clock) << where;
  EXPECT_EQ(a.destroyed, b.destroyed) << where;
  EXPECT_EQ(a.reply, b.reply) << where;
  EXPECT_EQ(a.failed, b.failed) << where;
  EXPECT_EQ(a.notified, b.notified) << where;
  EXPECT_EQ(a.dead_letters, b.dead_letters) << where;
}

void expect_same_execution(const engine::Execution& a, const engine::Execution& b, const std::string& where) {
  EXPECT_EQ(a.first_step, b.first_step) << where;
  if (a.first_step == 0) expect_same_step(a.initial, b.initial, where + ", step 0");
  ASSERT_EQ(a.steps.size(), b.steps.size()) << where;
  for (std::size_t i = 0; i < a.steps.size(); ++i)
    expect_same_step(a.steps[i], b.steps[i], where + ", steps[" + std::to_string(i) + "]");
  EXPECT_EQ(a.ending, b.ending) << where;
  EXPECT_EQ(a.detail, b.detail) << where;
  EXPECT_EQ(a.final_state, b.final_state) << where;
}

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    text += {kDigits[byte >> 4], kDigits[byte & 15], ' '};
  }
  return text;
}

/// A run's events serialized end to end, as a runner keeps them.
struct Serialized {
  std::string bytes;
  std::vector<std::size_t> ends;

  explicit Serialized(const std::vector<proto::Event>& events) {
    for (const auto& event : events) {
      bytes += event.SerializeAsString();
      ends.push_back(bytes.size());
    }
  }
  SerializedEvents view() const { return {bytes, ends}; }
};

/// The step protobuf and to_execution() make of `bytes`, or nullopt when protobuf refuses them.
std::optional<engine::Step> parsed_step(const std::string& bytes) {
  proto::Event event;
  if (!event.ParseFromString(bytes)) return std::nullopt;
  const proto::Event* events[] = {&event};
  auto execution = to_execution(events, proto::RunResult{});
  return event.step() == 0 ? execution.initial : execution.steps.at(0);
}

/// Protobuf logs every string field it refuses for its UTF-8; these tests make thousands.
class QuietProtobuf : public ::testing::Test {
 protected:
  google::protobuf::LogSilencer silence_;
};

using SerializedEventsTest = QuietProtobuf;

TEST_F(SerializedEventsTest, RunsDecodeAsProtobufAndToExecutionMakeThem) {
  std::mt19937 random(5);
  engine::Execution decoded;  // one, reused from run to run as an agent's
  engine::Execution with_spare;
  std::vector<engine::Step> spare;
  std::size_t most_steps = 0;
  for (int run = 0; run < 300; ++run) {
    std::vector<proto::Event> events;
    const auto steps = static_cast<std::uint32_t>(random() % 8);
    for (std::uint32_t step = 0; step <= steps; ++step) events.push_back(random_event(random, step));
    proto::RunResult result;
    result.set_status(run % 3 == 0 ? proto::RUN_SLEEP_BLOCKED : proto::RUN_COMPLETED);
    result.set_detail(random_text(random));
    result.add_final_state(random_text(random));
    const Serialized serialized(events);
    // Whole, and without a prefix of each length (a lean result's events).
    for (std::size_t first = 0; first <= events.size(); ++first) {
      const auto problem = decode_execution(serialized.view(), first, result, decoded);
      ASSERT_FALSE(problem) << *problem;
      std::vector<const proto::Event*> sent;
      for (std::size_t i = first; i < events.size(); ++i) sent.push_back(&events[i]);
      auto expected = to_execution(sent, result);
      // Every event left out: the run starts there with no step of its own (to_execution, given
      // no event, cannot tell where).
      if (first == events.size() && first > 0) expected.first_step = first;
      const std::string where = "run " + std::to_string(run) + " from step " + std::to_string(first);
      expect_same_execution(decoded, expected, where);
      // Steps a shorter run does not need wait in `spare` for a longer one, none lost or made anew.
      ASSERT_FALSE(decode_execution(serialized.view(), first, result, with_spare, &spare));
      expect_same_execution(with_spare, expected, where + ", with spare steps");
      most_steps = std::max(most_steps, with_spare.steps.size());
      EXPECT_EQ(with_spare.steps.size() + spare.size(), most_steps) << where;
    }
  }
}

TEST_F(SerializedEventsTest, BytesCutShortOrChangedDecodeExactlyWhenProtobufParsesThem) {
  std::mt19937 random(11);
  std::size_t refused = 0;
  std::size_t accepted = 0;
  for (int k = 0; k < 20; ++k) {
    const std::string whole = random_event(random, static_cast<std::uint32_t>(k)).SerializeAsString();
    std::vector<std::string> variants;
    for (std::size_t cut = 0; cut < whole.size(); ++cut) variants.push_back(whole.substr(0, cut));
    for (std::size_t at = 0; at < whole.size(); ++at) {
      for (unsigned char flip : {0x01, 0x07, 0x08, 0x80, 0xff, 0xc0}) {
        std::string changed = whole;
        changed[at] = static_cast<char>(static_cast<unsigned char>(changed[at]) ^ flip);
        variants.push_back(changed);
      }
    }
    for (const auto& bytes : variants) {
      const auto expected = parsed_step(bytes);
      engine::Step step;
      std::uint32_t number = 0;
      const bool decoded = decode_step(bytes, step, number);
      ASSERT_EQ(decoded, expected.has_value()) << "event " << k << ": " << hex(bytes) << "\nfrom " << hex(whole);
      if (!decoded) {
        ++refused;
        continue;
      }
      ++accepted;
      expect_same_step(step, *expected, "event " + std::to_string(k));
    }
  }
  // Both kinds were tried many times: the comparison above means something.
  EXPECT_GT(refused, 1000u);
  EXPECT_GT(accepted, 1000u);
}

TEST_F(SerializedEventsTest, UnknownFieldsOfEveryWireTypeAreSkipped) {
  std::mt19937 random(3);
  const proto::Event event = random_event(random, 1);
  // Field 99 as a varint, a fixed64, a length-delimited value, a group (holding a field) and a
  // fixed32; field 1 (step, a varint) as a fixed32, which protobuf keeps as an unknown field.
  const std::string unknown = std::string("\x98\x06\x96\x01", 4) + std::string("\x99\x06", 2) + std::string(8, 'x') +
                              std::string(
                                  "\x9a\x06\x03"
                                  "abc",
                                  6) +
                              std::string("\x9b\x06\x08\x05\x9c\x06", 6) + std::string("\x9d\x06", 2) +
                              std::string(4, 'y') + std::string("\x0d", 1) + std::string(4, 'z');
  const std::string bytes = event.SerializeAsString() + unknown;
  const auto expected = parsed_step(bytes);
  ASSERT_TRUE(expected);
  engine::Step step;
  std::uint32_t number = 0;
  ASSERT_TRUE(decode_step(bytes, step, number));
  EXPECT_EQ(number, 1u);
  expect_same_step(step, *expected, "with unknown fields");
  // A group whose end is another field's, and an end-group tag on its own, are refused by both.
  for (const std::string& bad : {std::string("\x9b\x06\xa4\x06", 4), std::string("\x9c\x06", 2)}) {
    EXPECT_FALSE(parsed_step(event.SerializeAsString() + bad));
    EXPECT_FALSE(decode_step(event.SerializeAsString() + bad, step, number));
  }
}

// A repeated uint32 may come packed (as protobuf writes it) or one element per tag; protobuf
// reads both, and mixed, into one list.
TEST_F(SerializedEventsTest, RejectedStepsAreReadPackedAndUnpacked) {
  // SentMessage: id "a", rejected_at 3 and 7 unpacked, then 9 and 300 packed.
  const std::string sent = std::string(
                               "\x0a\x01"
                               "a",
                               3) +
                           std::string("\x30\x03\x30\x07", 4) + std::string("\x32\x03\x09\xac\x02", 5);
  const std::string bytes = std::string("\x08\x01", 2) + "\x42" + static_cast<char>(sent.size()) + sent;
  const auto expected = parsed_step(bytes);
  ASSERT_TRUE(expected);
  ASSERT_EQ(expected->sent.size(), 1u);
  EXPECT_EQ(expected->sent[0].rejected_at, (std::vector<std::uint32_t>{3, 7, 9, 300}));
  engine::Step step;
  std::uint32_t number = 0;
  ASSERT_TRUE(decode_step(bytes, step, number));
  expect_same_step(step, *expected, "rejected steps packed and unpacked");
}

// Protobuf's parser refuses messages and groups nested more than 100 deep; so does the decoder,
// in an event and in a clock entry (itself one level down).
TEST_F(SerializedEventsTest, GroupsNestedAsDeepAsProtobufAllowsAndNoDeeper) {
  const auto groups = [](int depth) {
    std::string bytes;
    for (int k = 0; k < depth; ++k) bytes += "\x9b\x06";  // field 99, start group
    for (int k = 0; k < depth; ++k) bytes += "\x9c\x06";  // field 99, end group
    return bytes;
  };
  const auto in_clock_entry = [](const std::string& fields) {
    proto::Event event;
    event.set_step(1);
    event.add_clock()->set_actor("0");
    std::string bytes = event.SerializeAsString();
    // The clock entry is the last field: its length, one byte for these sizes, grows by `fields`.
    const std::string entry = event.clock(0).SerializeAsString() + fields;
    bytes.resize(bytes.size() - event.clock(0).ByteSizeLong() - 2);
    bytes += '\x3a';  // field 7, length-delimited
    std::string length;
    for (std::size_t n = entry.size(); n != 0 || length.empty(); n >>= 7)
      length += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    return bytes + length + entry;
  };
  engine::Step step;
  std::uint32_t number = 0;
  for (int depth : {98, 99, 100, 101}) {
    const std::string top = std::string("\x08\x01", 2) + groups(depth);
    EXPECT_EQ(decode_step(top, step, number), parsed_step(top).has_value()) << depth;
    const std::string nested = in_clock_entry(groups(depth));
    ASSERT_TRUE(parsed_step(in_clock_entry("")));
    EXPECT_EQ(decode_step(nested, step, number), parsed_step(nested).has_value()) << depth << " in a clock entry";
  }
  EXPECT_TRUE(decode_step(std::string("\x08\x01", 2) + groups(100), step, number));
  EXPECT_FALSE(decode_step(std::string("\x08\x01", 2) + groups(101), step, number));
  EXPECT_TRUE(decode_step(in_clock_entry(groups(99)), step, number));
  EXPECT_FALSE(decode_step(in_clock_entry(groups(100)), step, number));
}

TEST_F(SerializedEventsTest, AnEventOutOfItsPlaceOrUnparseableIsNamed) {
  std::mt19937 random(7);
  std::vector<proto::Event> events{random_event(random, 0), random_event(random, 2)};
  engine::Execution decoded;
  EXPECT_EQ(decode_execution(Serialized(events).view(), 0, {}, decoded),
            std::optional<std::string>("event for step 2 where step 1 was due"));
  events[1].set_step(1);
  Serialized serialized(events);
  serialized.bytes +=
      "\x0a\x05"
      "ab";  // a length past the end, in the last event
  serialized.ends.back() = serialized.bytes.size();
  EXPECT_EQ(decode_execution(serialized.view(), 0, {}, decoded),
            std::optional<std::string>("unparseable event of " +
                                       std::to_string(serialized.ends[1] - serialized.ends[0]) + " bytes for step 1"));
}

}  // namespace
}  // namespace exocheck::coordinator::testing
