#pragma once
// When a timer's firing is enabled under exploration (trace.proto's TimerSemantics): at any step
// after it was armed (TIMERS_ANYTIME, nothing to do), or only when nothing else can be delivered,
// those due earliest first (TIMERS_QUIESCENT). Such a firing depends on everything before it: the
// hook's sleep sets and the engine put it on every lane (kEveryLane). The controlled runtime and
// the engine tests' interpreter both enable firings through this.

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

/// Under TIMERS_QUIESCENT, keeps of `enabled` (indices of pending messages) the ordinary messages,
/// or when there are none the timer firings due earliest. `is_timer(i)` and `due_of(i)` say what
/// the rule needs.
template <typename IsTimer, typename DueOf>
void keep_quiescent_firings(proto::TimerSemantics timers, std::vector<std::size_t>& enabled, IsTimer is_timer,
                            DueOf due_of) {
  if (timers != proto::TIMERS_QUIESCENT || enabled.empty()) return;
  if (std::any_of(enabled.begin(), enabled.end(), [&](std::size_t i) { return !is_timer(i); })) {
    std::erase_if(enabled, is_timer);
    return;
  }
  std::uint64_t earliest = ~std::uint64_t{0};
  for (std::size_t i : enabled) earliest = std::min<std::uint64_t>(earliest, due_of(i));
  std::erase_if(enabled, [&](std::size_t i) { return due_of(i) != earliest; });
}

}  // namespace exocheck::detail
