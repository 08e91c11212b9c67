#pragma once
// The dependency relation of the model (coordinator/engine/src/dependency.md), written once for its
// two users: the engine, which asks it of interned keys for races, sleep sets and classes
// (engine/src/dependency.hpp), and the hook's sleep set, which asks it of actor ids to wake the
// sleeping messages a step may have changed (runtime_hook/src/sleep_set.hpp). A delivery's lane
// is its receiver, the actor whose state its handler reads and writes.

namespace exocheck::wire::dependency {

/// Deliveries to `receiver_a` and to `receiver_b` do not commute: they are on the same lane, or one
/// of them is on every lane (`every_lane`, as the caller names it: a timer's firing that may happen
/// only when nothing else can be delivered depends on everything), or they notified specification
/// monitors on a lane they share (`monitors_meet`, dependency.md "Specification monitors").
template <class Key>
constexpr bool dependent(const Key& receiver_a, const Key& receiver_b, const Key& every_lane, bool monitors_meet) {
  return receiver_a == receiver_b || receiver_a == every_lane || receiver_b == every_lane || monitors_meet;
}

}  // namespace exocheck::wire::dependency
