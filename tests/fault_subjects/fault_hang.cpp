// fault_hang: loops forever while handling the third hop, after steps 0, 1 and 2 were recorded;
// the runner's timeout has to end it. Started by hand, it injects no fault (looping forever is
// of no use there): the relay runs its five hops and the program exits 0.

#include "relay.hpp"

namespace {

// Volatile, so that the compiler keeps the loop (an empty infinite loop may be assumed away).
volatile bool spinning = true;

void hang() {
  while (spinning) {
  }
}

}  // namespace

int main() {
  exocheck::System system;
  exocheck::fault_subjects::FaultPlan plan;
  if (system.controlled()) plan.fault = hang;
  return exocheck::fault_subjects::run_relay(system, plan);
}
