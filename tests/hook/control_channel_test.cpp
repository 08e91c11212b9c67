// The hook's reading of run requests (control_channel.hpp) over a real socketpair: a request is
// read with one system call where it fits what is read ahead, and whatever the socket held beyond
// it, a request that is larger, or one that comes in pieces, is taken whole and in order.

#include "control_channel.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "exocheck/wire/frame.hpp"

namespace exocheck::detail {
namespace {

class ControlChannelReading : public ::testing::Test {
 protected:
  ControlChannelReading() {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) throw std::runtime_error("socketpair");
    agent_ = fds[0];
    channel_.emplace(fds[1]);
  }
  ~ControlChannelReading() override {
    if (agent_ >= 0) ::close(agent_);
  }

  static std::string frame_of(std::uint64_t seed, int labels) {
    proto::RunRequest request;
    request.set_protocol_version(wire::kProtocolVersion);
    request.set_seed(seed);
    for (int i = 0; i < labels; ++i) request.add_prefix("actor" + std::to_string(i) + "#" + std::to_string(seed));
    std::string frame;
    wire::append_frame(frame, request);
    return frame;
  }

  void send(const std::string& bytes) const {
    ASSERT_EQ(::write(agent_, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  }

  void close_agent() {
    ::close(agent_);
    agent_ = -1;
  }

  int agent_ = -1;
  std::optional<ControlChannel> channel_;
};

TEST_F(ControlChannelReading, RequestsWrittenTogetherAreReadOneByOneThenTheEnd) {
  send(frame_of(1, 3) + frame_of(2, 5) + frame_of(3, 0));
  close_agent();
  for (const auto& [seed, labels] : {std::pair{1, 3}, std::pair{2, 5}, std::pair{3, 0}}) {
    const auto request = channel_->next_request();
    ASSERT_TRUE(request.has_value());
    EXPECT_EQ(request->seed(), static_cast<std::uint64_t>(seed));
    ASSERT_EQ(request->prefix_size(), labels);
    if (labels > 0) {
      EXPECT_EQ(request->prefix(labels - 1), "actor" + std::to_string(labels - 1) + "#" + std::to_string(seed));
    }
  }
  EXPECT_FALSE(channel_->next_request().has_value());
}

TEST_F(ControlChannelReading, ARequestLargerThanWhatIsReadAheadArrivesWhole) {
  const std::string large = frame_of(7, 2000);
  ASSERT_GT(large.size(), ReceivedBytes::kCapacity * 4);
  // A small request first, so that the large one starts inside what was read ahead.
  send(frame_of(6, 1) + large + frame_of(8, 1));
  ASSERT_EQ(channel_->next_request()->seed(), 6u);
  const auto request = channel_->next_request();
  ASSERT_TRUE(request.has_value());
  EXPECT_EQ(request->seed(), 7u);
  ASSERT_EQ(request->prefix_size(), 2000);
  EXPECT_EQ(request->prefix(1999), "actor1999#7");
  EXPECT_EQ(channel_->next_request()->seed(), 8u);
}

TEST_F(ControlChannelReading, ARequestInPiecesIsTakenWhenItsLastByteArrives) {
  // Requests that end just short of, at and beyond what is read ahead, in pieces (the
  // header split after 2 bytes, then 61 bytes at a time): the bytes move to the front of the buffer as it fills.
  std::string bytes;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) bytes += frame_of(seed, static_cast<int>(seed * 3));
  ASSERT_GT(bytes.size(), ReceivedBytes::kCapacity * 2);
  std::size_t sent = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const std::size_t through = sent + frame_of(seed, static_cast<int>(seed * 3)).size();
    for (std::size_t piece = 2; sent < through; sent += piece, piece = 61) {
      send(bytes.substr(sent, std::min<std::size_t>(piece, through - sent)));
    }
    sent = through;
    const auto request = channel_->next_request();
    ASSERT_TRUE(request.has_value());
    EXPECT_EQ(request->seed(), seed);
    EXPECT_EQ(request->prefix_size(), static_cast<int>(seed * 3));
  }
}

TEST_F(ControlChannelReading, AnEndInsideARequestIsAnErrorNotTheEndOfTheServer) {
  const std::string frame = frame_of(1, 4);
  send(frame.substr(0, frame.size() - 1));
  close_agent();
  EXPECT_THROW(channel_->next_request(), std::runtime_error);
}

TEST_F(ControlChannelReading, BytesReadAheadMoveWithTheBufferTheyAreKeptIn) {
  send(frame_of(1, 1) + frame_of(2, 1));
  ASSERT_EQ(channel_->next_request()->seed(), 1u);
  ReceivedBytes elsewhere;
  channel_->keep_received_in(&elsewhere);
  EXPECT_EQ(channel_->next_request()->seed(), 2u);
}

}  // namespace
}  // namespace exocheck::detail
