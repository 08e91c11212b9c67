#pragma once
// The hook's side of the control channel as the runner sees it: Hello, then Event* with
// consecutive step numbers from 0, then one RunResult. Anything else is a protocol error.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "exocheck/agent/runner.hpp"
#include "frame_decoder.hpp"
#include "proto/control.pb.h"

namespace exocheck::agent {

/// Whose fault a broken conversation is: it decides between a bug of the program (exit 1) and an
/// error of exocheck's (exit 2, never reported as the program's bug).
enum class ChannelFault {
  /// Bytes that are no frame of the hook's: the program may have written them (a stray write to
  /// its descriptor, a corrupted buffer), as any other memory fault of its own.
  garbage,
  /// Well-formed frames out of the protocol's order, events beyond the event buffer, events the
  /// agent cannot take: a fault or a limit of exocheck's (RUN_EXOCHECK_FAILED).
  exocheck,
  /// A hook that speaks another protocol version: the program is refused (RUN_LAUNCH_FAILED).
  other_version,
};

class HookConversation {
 public:
  /// Records the hello, the events and the result into `report` as they arrive (its result must
  /// be clear, as Runner::run leaves it).
  explicit HookConversation(RunReport& report) : report_(report) {
    report_.deferred_events.clear();
    report_.deferred_event_ends.clear();
  }

  /// Keeps events as bytes instead of parsing them, as far as `spec` allows: all of them for a
  /// lean-event sink (RunSpec::lean_events), the prefix's for RunSpec::defer_prefix_events (a lean
  /// result, wire/result_events.hpp, leaves them out). Parsing is the largest part of the agent's
  /// work per run; complete_events() parses them when the run needs them after all.
  void defer_for(const RunSpec& spec) {
    if (spec.lean_events) {
      deferred_below_ = SIZE_MAX;
    } else if (spec.defer_prefix_events) {
      deferred_below_ = static_cast<std::size_t>(spec.request.prefix_size());
    }
  }
  /// Puts the deferred events, parsed, in front of report.events. Fails the conversation (see
  /// problem()) if one does not parse.
  void complete_events();

  /// Room for `bytes` more bytes read from the channel; then call received().
  char* prepare(std::size_t bytes) { return decoder_.prepare(bytes); }
  /// Takes `bytes` bytes written at prepare()'s pointer and handles every complete frame.
  void received(std::size_t bytes);
  /// Handles every complete frame at the start of `bytes` where they are, without copying them
  /// (memory the caller keeps while this runs: the shared event buffer); returns the bytes those
  /// frames took. A frame cut short at the end is left for a later call with more bytes.
  std::size_t take_frames(std::string_view bytes);

  /// The result arrived; later bytes are ignored.
  bool finished() const { return finished_; }
  /// The hook broke the protocol; problem() says how.
  bool failed() const { return !problem_.empty(); }
  /// Nothing more is expected from the channel.
  bool done() const { return finished() || failed(); }
  /// What went wrong, e.g. "oversized frame of 1073741824 bytes".
  const std::string& problem() const { return problem_; }
  /// Whose fault failed() is.
  ChannelFault fault() const { return fault_; }
  /// The hook's result, once finished(): in the report's result, where the verdict keeps it.
  const proto::RunResult& result() const { return report_.result; }

 private:
  void handle(std::string_view payload);
  void handle_hello(const proto::Hello& hello);
  void handle_event(proto::Event& event);
  void handle_result(proto::RunResult& result);
  /// A new event at the end of `events`: a spare message of the report's when there is one, whose
  /// strings and repeated fields parsing reuses.
  proto::Event& add_event(std::vector<proto::Event>& events);
  bool take_step(std::uint32_t step);  // the next event's step: false (and failed) unless due
  void defer(std::string_view event_bytes);
  void fail(std::string problem, ChannelFault fault = ChannelFault::garbage);

  RunReport& report_;
  FrameDecoder decoder_;
  proto::HookMessage message_;  // reused: parsing into a cleared message keeps its allocations
  bool finished_ = false;
  std::string problem_;
  ChannelFault fault_ = ChannelFault::garbage;
  std::size_t deferred_below_ = 0;  // the serialized events of steps below it: report_.deferred_events
  std::uint32_t next_step_ = 0;
};

}  // namespace exocheck::agent
