#pragma once
// The common body of the fault subjects: two actors, "0" and "1", pass a numbered Hop back and
// forth, so that a run has real message steps before anything goes wrong:
//   step 0: main spawns both and sends Hop{1} (env#1) to "0"
//   step 1: env#1 at actor 0 -> sends Hop{2} (0#1) to "1"
//   step 2: 0#1 at actor 1   -> sends Hop{3} (1#1) to "0"
//   step 3: 1#1 at actor 0   -> the fault, if one is planned for hop 3
// Without a fault the hops go on until `last_hop`, then the program is quiescent.

#include <functional>
#include <iostream>
#include <string>
#include <utility>

#include "exocheck/exocheck.hpp"

namespace exocheck::fault_subjects {

/// One hop of the relay; `next` is the actor the receiver passes the following hop to.
struct Hop {
  static constexpr const char* type_name = "Hop";
  int n = 0;
  ActorRef next;
  std::string tag;  ///< described when not empty
  void describe(Describer& d) const {
    d("n", n)("next", next);
    if (!tag.empty()) d("tag", tag);
  }
};

/// When and how a subject misbehaves.
struct FaultPlan {
  int fault_hop = 3;            ///< the hop whose handler runs `fault`
  int last_hop = 5;             ///< the hop after which the relay stops
  std::function<void()> fault;  ///< empty: no fault (the subject was started by hand)
  std::string tag;              ///< every hop's tag, and the final state of the relay's actors
};

class Relay : public Actor {
 public:
  explicit Relay(const FaultPlan& plan) : plan_(plan) {
    on([this](const Hop& hop) {
      if (hop.n == plan_.fault_hop && plan_.fault) plan_.fault();
      if (hop.n < plan_.last_hop) send(hop.next, Hop{hop.n + 1, self(), plan_.tag});
    });
  }
  std::string final_state() const override { return plan_.tag; }

 private:
  const FaultPlan& plan_;
};

/// Runs the relay under `plan` and returns the exit code of System::run().
inline int run_relay(System& system, const FaultPlan& plan) {
  const ActorRef first = system.spawn<Relay>(plan);
  const ActorRef second = system.spawn<Relay>(plan);
  system.send(first, Hop{1, second, plan.tag});
  const int code = system.run();
  if (!system.controlled()) std::cout << "relay: " << plan.last_hop << " hops, no fault injected" << std::endl;
  return code;
}

}  // namespace exocheck::fault_subjects
