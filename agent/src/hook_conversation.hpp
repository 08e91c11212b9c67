#pragma once
// The hook's side of the control channel as the runner sees it: Hello, then Event* with
// consecutive step numbers from 0, then one RunResult. Anything else is a protocol error.

#include <cstddef>
#include <string>
#include <string_view>

#include "exocheck/agent/runner.hpp"
#include "frame_decoder.hpp"
#include "proto/control.pb.h"

namespace exocheck::agent {

class HookConversation {
 public:
  /// Records the hello and the events into `report` as they arrive.
  explicit HookConversation(RunReport& report) : report_(report) {}

  /// Room for `bytes` more bytes read from the channel; then call received().
  char* prepare(std::size_t bytes) { return decoder_.prepare(bytes); }
  /// Takes `bytes` bytes written at prepare()'s pointer and handles every complete frame.
  void received(std::size_t bytes);

  /// The result arrived; later bytes are ignored.
  bool finished() const { return finished_; }
  /// The hook broke the protocol; problem() says how.
  bool failed() const { return !problem_.empty(); }
  /// Nothing more is expected from the channel.
  bool done() const { return finished() || failed(); }
  /// What went wrong, e.g. "oversized frame of 1073741824 bytes".
  const std::string& problem() const { return problem_; }
  /// The hook's result, once finished().
  const proto::RunResult& result() const { return result_; }

 private:
  void handle(std::string_view payload);
  void handle_hello(const proto::Hello& hello);
  void handle_event(proto::Event& event);
  void handle_result(proto::RunResult& result);
  void check_new_event();  // the event just appended: its step must be the next one
  void fail(std::string problem);

  RunReport& report_;
  FrameDecoder decoder_;
  proto::HookMessage message_;  // reused: parsing into a cleared message keeps its allocations
  proto::RunResult result_;
  bool finished_ = false;
  std::string problem_;
};

}  // namespace exocheck::agent
