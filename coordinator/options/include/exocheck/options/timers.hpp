#pragma once
// The timer axis: when a timer may fire under exploration (no time passes there).

#include <array>
#include <optional>
#include <string_view>

#include "exocheck/engine/options.hpp"
#include "exocheck/options/option_table.hpp"
#include "proto/trace.pb.h"

namespace exocheck::options {

struct TimersRow {
  std::string_view name;
  std::string_view help;
  engine::Timers engine;
  proto::TimerSemantics wire;
};

inline constexpr std::string_view kTimersFlag = "--timers";
inline constexpr std::string_view kTimersHelp =
    "When a timer (after, every, a call's timeout) may fire under exploration, where no time passes";

inline constexpr std::array<TimersRow, 2> kTimers{{
    {"anytime",
     "at any step after it was armed: every reply may be late, as in an asynchronous network (the default: "
     "what finds a timeout racing with its reply)",
     engine::Timers::kAnytime, proto::TIMERS_ANYTIME},
    {"quiescent",
     "only when nothing else can be delivered, earliest due time first: messages are fast, timeouts are long",
     engine::Timers::kQuiescent, proto::TIMERS_QUIESCENT},
}};

inline std::string_view name_of(engine::Timers timers) {
  return row_of(kTimers, timers).name;
}

inline std::optional<engine::Timers> parse_timers(std::string_view name) {
  return parse(kTimers, name);
}

}  // namespace exocheck::options
