#pragma once
// A worker's lean-event sink: a clean run's events made straight into the engine's Execution
// from the bytes the hook wrote (coordinator/serialized_events.hpp), for the session to take
// without a protobuf message in between.

#include "exocheck/agent/runner.hpp"
#include "exocheck/coordinator/serialized_events.hpp"
#include "exocheck/engine/execution.hpp"

namespace exocheck::agent {

class DecodedExecution final : public LeanEventSink {
 public:
  std::optional<std::string> take(std::string_view bytes, std::span<const std::size_t> ends, std::size_t first_step,
                                  const proto::RunResult& result) override {
    return coordinator::decode_execution({bytes, ends}, first_step, result, execution_, &spare_steps_);
  }

  /// The last run taken (RunReport::events_taken); its storage is reused by the next.
  const engine::Execution& execution() const { return execution_; }

 private:
  engine::Execution execution_;
  std::vector<engine::Step> spare_steps_;  // a longer run's, kept for the next one
};

}  // namespace exocheck::agent
