// fault_latin1: text that is not UTF-8 everywhere a subject writes text of its own. Its relay's
// third hop prints a Latin-1 line on stderr and fails a check whose text is Latin-1; every hop's
// summary carries a Latin-1 word, and actor 0's final state one more. The run must still end as
// the assertion failure it is: protobuf's string fields reject such bytes, so they arrive as
// U+FFFD. Started by hand, it injects no fault.

#include <iostream>
#include <string>

#include "relay.hpp"

namespace {

const std::string kLatin1 = "caf\xe9";  // "café" in Latin-1: 0xE9 starts no UTF-8 sequence here

void fail_in_latin1() {
  std::cerr << "stderr " << kLatin1 << std::endl;
  exocheck::check(false, "check " + kLatin1);
}

}  // namespace

int main() {
  exocheck::System system;
  exocheck::fault_subjects::FaultPlan plan;
  plan.tag = kLatin1;
  if (system.controlled()) plan.fault = fail_in_latin1;
  return exocheck::fault_subjects::run_relay(system, plan);
}
