#pragma once
// The process's specification monitors (exocheck/monitor.hpp), for the runtimes: what a run
// checks at its end and at every step (liveness).

#include <vector>

#include "exocheck/monitor.hpp"

namespace exocheck::detail {

/// Every monitor registered, in registration order.
const std::vector<Monitor*>& registered_monitors();
/// From now on no monitor may be registered (the run has begun).
void close_monitor_registration();
/// The first monitor that is hot, or nullptr.
const Monitor* first_hot_monitor();

}  // namespace exocheck::detail
