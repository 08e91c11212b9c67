// CAF's own definitions of the functions the adapter interposes, behind the adapter's: what the
// interposer passes a call on to, and what the bridge delivers a chosen message with.

#include "real_caf.hpp"

#include "real_function.hpp"

namespace exocheck::caf_adapter {

void real_launch(caf::blocking_actor& actor, caf::execution_unit* unit, bool lazy, bool hide) {
  using Real = void (*)(caf::blocking_actor*, caf::execution_unit*, bool, bool);
  static const auto real = real_function<Real>("_ZN3caf14blocking_actor6launchEPNS_14execution_unitEbb");
  real(&actor, unit, lazy, hide);
}

void real_enqueue(caf::blocking_actor& actor, caf::mailbox_element_ptr element, caf::execution_unit* unit) {
  using Real = void (*)(caf::blocking_actor*, caf::mailbox_element_ptr, caf::execution_unit*);
  static const auto real = real_function<Real>(
      "_ZN3caf14blocking_actor7enqueueESt10unique_ptrINS_15mailbox_elementENS_6detail8disposerEEPNS_14execution_"
      "unitE");
  real(&actor, std::move(element), unit);
}

void real_enqueue(caf::scheduled_actor& actor, caf::mailbox_element_ptr element, caf::execution_unit* unit) {
  using Real = void (*)(caf::scheduled_actor*, caf::mailbox_element_ptr, caf::execution_unit*);
  static const auto real = real_function<Real>(
      "_ZN3caf15scheduled_actor7enqueueESt10unique_ptrINS_15mailbox_elementENS_6detail8disposerEEPNS_14execution_"
      "unitE");
  real(&actor, std::move(element), unit);
}

}  // namespace exocheck::caf_adapter
