#include "subtree_handover.hpp"

#include <utility>

namespace exocheck::engine {

Subtree subtree_below(const Names& names, std::vector<std::string> prefix, const WakeupEvent& first,
                      const WakeupTree& rest, const SleepSet& sleep) {
  Subtree subtree;
  subtree.prefix = std::move(prefix);
  subtree.prefix.push_back(names.name(first.message));
  for (const Pending& p : sleep) {
    subtree.sleep.emplace_back(names.name(p.message), names.name(p.receiver));
    if (p.notifies) subtree.sleep_notifying.push_back(names.name(p.message));
  }
  for (const auto& [depth, event] : rest.preorder()) {
    WakeupStep step = step_named(event, names);
    step.depth = static_cast<std::uint32_t>(depth);
    subtree.wakeup.push_back(std::move(step));
  }
  return subtree;
}

void take_root(const Subtree& subtree, Names& names, Configuration& root) {
  for (const auto& [message, receiver] : subtree.sleep) {
    root.sleep.fall_asleep(
        {names.intern(message), names.intern(receiver), MonitorLanes::from_flag(notifying(subtree, message))});
  }
  std::vector<std::pair<std::size_t, WakeupEvent>> nodes;
  for (const WakeupStep& step : subtree.wakeup) nodes.emplace_back(step.depth, event_named(step, names));
  root.wakeup = WakeupTree::from_preorder(nodes);
}

}  // namespace exocheck::engine
