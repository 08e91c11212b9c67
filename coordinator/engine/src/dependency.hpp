#pragma once
// The dependency relation of the model: which deliveries do not commute, and which must come after
// which. Race analysis (race.cpp), sleep sets (sleep_set.hpp), wakeup trees (wakeup_tree.cpp),
// the co-enabled steps a race looks at and the class of an execution (trace_view.cpp) all ask
// here, so that a new kind of event (a timer, a choice, a fault) extends the model in one place.
// Why it is sound, and why a message a guard holds back does not race: dependency.md beside this.

#include "exocheck/wire/dependency.hpp"
#include "monitor_lanes.hpp"
#include "names.hpp"

namespace exocheck::engine::dependency {

/// The lane that is every lane ("*", which every Names interns first): a timer's firing that may
/// happen only when nothing else can be delivered (--timers quiescent) depends on everything
/// before it and everything after it. Traces name its messages' receiver so in the engine.
inline constexpr Key kEveryLane = 0;

/// The lane of a delivery: the actor whose state its handler reads and writes, its receiver.
/// Deliveries on one lane are totally ordered in every execution; a class is each lane's sequence
/// between the deliveries on every lane.
constexpr Key lane(Key receiver) {
  return receiver;
}

/// Deliveries to `receiver_a` and to `receiver_b` do not commute: they are on the same lane, or one
/// of them is on every lane, or they notified specification monitors on a lane they share
/// (`notifies_a`, `notifies_b`: dependency.md "Specification monitors"; a delivery not run yet
/// where it is asked of may be taken to notify any).
constexpr bool dependent(Key receiver_a, Key receiver_b, MonitorLanes notifies_a = {}, MonitorLanes notifies_b = {}) {
  return wire::dependency::dependent(lane(receiver_a), lane(receiver_b), kEveryLane, notifies_a.meets(notifies_b));
}

/// The delivery of a message that the delivery of `earlier` sent (`sender`: the message whose
/// delivery sent it, kNoKey when it was pending from the start) comes after that delivery.
constexpr bool sent_by(Key sender, Key earlier) {
  return sender != kNoKey && sender == earlier;
}

}  // namespace exocheck::engine::dependency
