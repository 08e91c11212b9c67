#pragma once
// CAF's own definitions of the functions the adapter interposes (interposed_caf.cpp), found behind
// the adapter (real_caf.cpp). Both the interposer and the bridge call them; neither needs the other.

#include <caf/blocking_actor.hpp>
#include <caf/mailbox_element.hpp>
#include <caf/scheduled_actor.hpp>

namespace exocheck::caf_adapter {

/// CAF's scheduled_actor::enqueue: puts `element` into `actor`'s mailbox and schedules it.
void real_enqueue(caf::scheduled_actor& actor, caf::mailbox_element_ptr element, caf::execution_unit* unit);

/// CAF's blocking_actor::enqueue: puts `element` into `actor`'s mailbox and wakes its thread.
void real_enqueue(caf::blocking_actor& actor, caf::mailbox_element_ptr element, caf::execution_unit* unit);

/// CAF's blocking_actor::launch: starts `actor`'s thread.
void real_launch(caf::blocking_actor& actor, caf::execution_unit* unit, bool lazy, bool hide);

}  // namespace exocheck::caf_adapter
