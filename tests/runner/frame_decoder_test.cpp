// Unit tests of the frame decoder: frames split across reads, many frames per read, oversize.

#include "frame_decoder.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "exocheck/wire/frame.hpp"

namespace exocheck::agent {
namespace {

std::string frame(const std::string& payload) {
  std::string out;
  wire::append_frame_header(out, static_cast<std::uint32_t>(payload.size()));
  return out + payload;
}

void feed(FrameDecoder& decoder, const std::string& bytes) {
  std::memcpy(decoder.prepare(bytes.size()), bytes.data(), bytes.size());
  decoder.commit(bytes.size());
}

std::vector<std::string> take_all(FrameDecoder& decoder) {
  std::vector<std::string> frames;
  std::string_view payload;
  while (decoder.next(payload) == FrameDecoder::Status::frame) frames.emplace_back(payload);
  return frames;
}

TEST(FrameDecoder, TakesEveryFrameOfOneRead) {
  FrameDecoder decoder;
  feed(decoder, frame("alpha") + frame("") + frame("gamma"));
  EXPECT_EQ(take_all(decoder), (std::vector<std::string>{"alpha", "", "gamma"}));
  EXPECT_EQ(decoder.buffered(), 0u);
}

TEST(FrameDecoder, JoinsAFrameSplitByteByByte) {
  FrameDecoder decoder;
  const std::string bytes = frame("split across seven reads") + frame("x");
  std::vector<std::string> frames;
  for (char byte : bytes) {
    feed(decoder, std::string(1, byte));
    for (auto& taken : take_all(decoder)) frames.push_back(taken);
  }
  EXPECT_EQ(frames, (std::vector<std::string>{"split across seven reads", "x"}));
}

TEST(FrameDecoder, KeepsAPartialFrameWhileTheBufferIsCompacted) {
  FrameDecoder decoder;
  const std::string big(100'000, 'b');
  const std::string bytes = frame("first") + frame(big);
  feed(decoder, bytes.substr(0, 20));
  EXPECT_EQ(take_all(decoder), (std::vector<std::string>{"first"}));
  EXPECT_EQ(decoder.buffered(), 20u - 9u);
  feed(decoder, bytes.substr(20));
  EXPECT_EQ(take_all(decoder), (std::vector<std::string>{big}));
}

TEST(FrameDecoder, ReportsAnOversizedHeaderWithoutWaitingForItsPayload) {
  FrameDecoder decoder;
  std::string header;
  wire::append_frame_header(header, wire::kMaxFrameBytes + 1);
  feed(decoder, frame("ok") + header);
  std::string_view payload;
  ASSERT_EQ(decoder.next(payload), FrameDecoder::Status::frame);
  EXPECT_EQ(decoder.next(payload), FrameDecoder::Status::oversized);
  EXPECT_EQ(decoder.oversized_length(), wire::kMaxFrameBytes + 1);
}

TEST(FrameDecoder, AcceptsAFrameOfExactlyTheMaximumSize) {
  FrameDecoder decoder;
  std::string header;
  wire::append_frame_header(header, wire::kMaxFrameBytes);
  feed(decoder, header);
  std::string_view payload;
  EXPECT_EQ(decoder.next(payload), FrameDecoder::Status::incomplete);
}

}  // namespace
}  // namespace exocheck::agent
