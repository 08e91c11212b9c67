#pragma once
// What the interpreter (interpreter.cpp) keeps of a running Program: its actors and messages in
// flight, as the hook's ActorCell and Envelope keep them.

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exocheck/detail/envelope.hpp"
#include "vector_clock.hpp"

namespace exocheck::engine::testing::interpreted {

using exocheck::detail::TimerKind;
using exocheck::detail::VectorClock;

struct Actor {
  std::string id;
  int type = 0;
  std::uint64_t creation_seq = 0;
  int count = 0;
  long acc = 0;
  std::vector<int> slots = std::vector<int>(8, -1);
  bool destroyed = false;
  bool destroy_requested = false;
  std::string awaiting;
  int await_then = 0;
  int await_timeout = -1;                                         ///< the continuation of the call's timeout
  std::string call_timeout;                                       ///< the call's timeout timer, while it waits
  std::vector<std::string> abandoned;                             ///< calls that timed out: their replies are dropped
  std::vector<std::string> timers = std::vector<std::string>(2);  ///< timer slots: timers' names
  int children = 0;
  int sent = 0;
  std::shared_ptr<const VectorClock> clock;
  /// As the hook's ActorCell: who is told of its end (actor, incarnation), crashes it came back
  /// from, faults suffered.
  std::vector<std::pair<int, std::uint32_t>> monitors;
  std::uint32_t incarnation = 0;
  std::uint32_t crashes = 0, losses = 0, duplicates = 0, partitions = 0;
  std::vector<int> cut_links;  ///< as the hook's: a receiver's index + 1, or 0 (the other side)
  /// As the hook's guard history: (step, count before it) for the latest steps not awaiting a reply.
  std::deque<std::pair<std::uint32_t, int>> guard_history;
};

struct Message {
  std::string id;
  int sender = -1;
  int receiver = 0;
  int type = 0;
  long value = 0;
  int carry = -1;
  bool is_call = false;
  std::string answers;
  std::uint64_t send_seq = 0;
  std::shared_ptr<const VectorClock> clock;
  TimerKind timer = TimerKind::kNone;  ///< as the hook's Envelope
  std::string series;                  ///< a timer's name
  bool quiescent = false;              ///< sent quiescent: delivered only when nothing else can be
  std::uint64_t due = 0;               ///< a timer's due time
  int delay = 0;                       ///< a timer's delay
  bool monitor_request = false;        ///< Actor::monitor's request, answered by the runtime
  std::uint32_t incarnation = 0;       ///< a monitor request's and its Down's: the watcher's
};

constexpr int kReplyType = -1;
constexpr int kTimeoutType = -2;
constexpr int kMonitorType = -4;  ///< Actor::monitor's request (program.hpp's kDownType is -3)

}  // namespace exocheck::engine::testing::interpreted
