// Unit tests of HookConversation::take_frames, which decodes frames where a fork server's run
// wrote them (the shared event buffer): only whole frames are taken, a frame cut short waits for
// its end, and an oversized header fails the conversation as it does on the control channel.

#include "hook_conversation.hpp"

#include <gtest/gtest.h>

#include <string>

#include "exocheck/wire/frame.hpp"

namespace exocheck::agent {
namespace {

std::string framed(const proto::HookMessage& message) {
  std::string out;
  const std::string payload = message.SerializeAsString();
  wire::append_frame_header(out, static_cast<std::uint32_t>(payload.size()));
  return out + payload;
}

std::string event_frame(std::uint32_t step, const std::string& message_id) {
  proto::HookMessage message;
  message.mutable_event()->set_step(step);
  message.mutable_event()->set_message(message_id);
  return framed(message);
}

class TakeFrames : public ::testing::Test {
 protected:
  TakeFrames() { report.hello_seen = true; }  // a fork server said hello once, for all its runs
  RunReport report;
  HookConversation conversation{report};
};

TEST_F(TakeFrames, TakesWholeFramesAndLeavesOneCutShortForLater) {
  const std::string first = event_frame(0, "env#1"), second = event_frame(1, "0#1");
  const std::string bytes = first + second;
  // Written so far: the first frame and part of the second.
  const std::size_t cut = first.size() + 3;
  EXPECT_EQ(conversation.take_frames(std::string_view(bytes).substr(0, cut)), first.size());
  ASSERT_EQ(report.events.size(), 1u);
  EXPECT_EQ(report.events[0].message(), "env#1");
  // The rest arrived: taken from where the last call stopped.
  EXPECT_EQ(conversation.take_frames(std::string_view(bytes).substr(first.size())), second.size());
  ASSERT_EQ(report.events.size(), 2u);
  EXPECT_EQ(report.events[1].message(), "0#1");
  EXPECT_FALSE(conversation.done());

  proto::HookMessage result;
  result.mutable_result()->set_status(proto::RUN_COMPLETED);
  EXPECT_EQ(conversation.take_frames(framed(result)), framed(result).size());
  EXPECT_TRUE(conversation.finished());
  EXPECT_EQ(conversation.result().status(), proto::RUN_COMPLETED);
}

TEST_F(TakeFrames, AHeaderCutShortTakesNothing) {
  const std::string frame = event_frame(0, "env#1");
  EXPECT_EQ(conversation.take_frames(std::string_view(frame).substr(0, wire::kFrameHeaderBytes - 1)), 0u);
  EXPECT_EQ(conversation.take_frames(""), 0u);
  EXPECT_TRUE(report.events.empty());
  EXPECT_FALSE(conversation.done());
}

TEST_F(TakeFrames, AnOversizedHeaderFailsTheConversation) {
  std::string bytes = event_frame(0, "env#1");
  const std::size_t first = bytes.size();
  wire::append_frame_header(bytes, wire::kMaxFrameBytes + 1);
  EXPECT_EQ(conversation.take_frames(bytes), first);
  EXPECT_TRUE(conversation.failed());
  EXPECT_EQ(conversation.problem(), "oversized frame of " + std::to_string(wire::kMaxFrameBytes + 1) + " bytes");
  EXPECT_EQ(report.events.size(), 1u);
}

TEST_F(TakeFrames, AStepOutOfOrderFailsTheConversation) {
  EXPECT_EQ(conversation.take_frames(event_frame(1, "0#1")), event_frame(1, "0#1").size());
  EXPECT_TRUE(conversation.failed());
  EXPECT_TRUE(report.events.empty());
}

}  // namespace
}  // namespace exocheck::agent
