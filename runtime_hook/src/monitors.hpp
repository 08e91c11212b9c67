#pragma once
// The process's specification monitors (exocheck/monitor.hpp), for the runtimes: what a run
// checks at its end and at every step (liveness).

#include <memory>
#include <vector>

#include "exocheck/monitor.hpp"

namespace exocheck::detail {

/// Registers a monitor known by its name only (a CAF program's, exocheck/caf_monitor.hpp, whose
/// type is the program's own); the same name again is the same monitor.
Monitor& register_named_monitor(std::unique_ptr<Monitor> monitor);
/// Every monitor registered, in registration order.
const std::vector<Monitor*>& registered_monitors();
/// From now on no monitor may be registered (the run has begun).
void close_monitor_registration();
/// The first monitor that is hot, or nullptr.
const Monitor* first_hot_monitor();

}  // namespace exocheck::detail
