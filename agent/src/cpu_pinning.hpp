#pragma once
// Pinning threads to CPUs. A pinned thread's subject processes (its fork server and the server's
// runs) inherit the pinning, so a worker and the processes it waits for share one core's caches
// instead of migrating between cores at every hand-over.

#include <vector>

namespace exocheck::agent {

/// The CPUs the calling thread may run on, in increasing order.
std::vector<int> allowed_cpus();

/// Restricts the calling thread, and the threads and processes it starts later, to `cpus`.
/// False when the kernel refused.
bool pin_this_thread(const std::vector<int>& cpus);

}  // namespace exocheck::agent
