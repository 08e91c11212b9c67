#pragma once
// Runs a Program (program.hpp) as the hook's controlled mode would run a real subject, and
// returns the execution the engine consumes.

#include <cstdint>
#include <string>
#include <vector>

#include "exocheck/engine/execution.hpp"
#include "program.hpp"
#include "proto/control.pb.h"

namespace exocheck::engine::testing {

struct RunSpec {
  std::vector<std::string> prefix;
  std::vector<std::string> sleep;
  std::vector<std::string> sleep_notifying;                     ///< of sleep, those that notify
  std::vector<std::vector<std::string>> sleep_notifying_lanes;  ///< their monitors' lanes (empty: any)
  std::vector<std::string> ranking;                             ///< for RANKED
  proto::Heuristic heuristic = proto::FIFO;
  std::uint64_t step_limit = 10'000;
  std::uint64_t seed = 0;  ///< RANDOM_WALK and PCT
  std::uint32_t pct_depth = 0;
  std::uint32_t pct_steps = 0;
  std::size_t wakeup_entries = 0;  ///< optimal DPOR: the prefix's last entries that may be held back
  proto::DeliveryOrder delivery = proto::DELIVERY_UNORDERED;
  proto::TimerSemantics timers = proto::TIMERS_ANYTIME;
};

Execution run_program(const Program& program, const RunSpec& spec);

}  // namespace exocheck::engine::testing
