// fault_crash: dereferences a null pointer (SIGSEGV) while handling the third hop, after steps
// 0, 1 and 2 were recorded. Started by hand (no agent), it injects no fault: the relay runs its
// five hops and the program exits 0.

#include "relay.hpp"

namespace {

void crash() {
  // Volatile pointer to volatile: the compiler can neither prove the pointer null (and emit a
  // trap, SIGILL) nor drop the store as undefined behaviour.
  volatile int* volatile nowhere = nullptr;
  *nowhere = 42;
}

}  // namespace

int main() {
  exocheck::System system;
  exocheck::fault_subjects::FaultPlan plan;
  if (system.controlled()) plan.fault = crash;
  return exocheck::fault_subjects::run_relay(system, plan);
}
