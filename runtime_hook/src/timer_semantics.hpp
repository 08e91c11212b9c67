#pragma once
// When a timer's firing is enabled under exploration (trace.proto's TimerSemantics): at any step
// after it was armed (TIMERS_ANYTIME, nothing to do), or only when nothing else can be delivered,
// those due earliest first (TIMERS_QUIESCENT). Such a firing depends on everything before it: the
// hook's sleep sets and the engine put it on every lane (kEveryLane). A message an adapter sends
// quiescent (trace.proto) is delivered by the same rule. The controlled runtime and the engine
// tests' interpreter both enable deliveries through this.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "wire_messages.hpp"

namespace exocheck::detail {

/// The lane, in sleep sets, of a firing that depends on everything: the engine's name for it too
/// (coordinator/engine/src/dependency.hpp).
inline constexpr std::string_view kEveryLane = "*";

/// Keeps of `enabled` (indices of pending messages) the ordinary messages, or when there are none
/// the quiescent deliveries (timer firings under TIMERS_QUIESCENT, messages sent quiescent): under
/// TIMERS_QUIESCENT those due earliest, under TIMERS_ANYTIME all of them. (With timers that fire
/// at any step, the virtual time at which a quiescent message was sent depends on the order of
/// independent firings, so that a due-time order among them would depend on more than their
/// senders' own histories: a differential seed showed classes lost.) `is_quiescent(i)` and
/// `due_of(i)` say what the rule needs.
template <typename IsQuiescent, typename DueOf>
void keep_quiescent_deliveries(proto::TimerSemantics timers, std::vector<std::size_t>& enabled,
                               IsQuiescent is_quiescent, DueOf due_of) {
  if (enabled.empty()) return;
  if (std::any_of(enabled.begin(), enabled.end(), [&](std::size_t i) { return !is_quiescent(i); })) {
    std::erase_if(enabled, is_quiescent);
    return;
  }
  if (timers != proto::TIMERS_QUIESCENT) return;
  std::uint64_t earliest = ~std::uint64_t{0};
  for (std::size_t i : enabled) earliest = std::min<std::uint64_t>(earliest, due_of(i));
  std::erase_if(enabled, [&](std::size_t i) { return due_of(i) != earliest; });
}

}  // namespace exocheck::detail
