#pragma once
// Pinning threads to CPUs. A pinned thread's subject processes (its fork server and the server's
// runs) inherit the pinning, so a worker and the processes it waits for share one core's caches
// instead of migrating between cores at every hand-over.

#include <sys/types.h>

#include <vector>

namespace exocheck::agent {

/// The CPUs thread or process `pid` may run on (0: the calling thread), in increasing order.
std::vector<int> allowed_cpus(pid_t pid = 0);

/// Restricts thread or process `pid` (0: the calling thread), and the threads and processes it
/// starts later, to `cpus`. False when the kernel refused.
bool pin(pid_t pid, const std::vector<int>& cpus);

/// pin() of the calling thread.
inline bool pin_this_thread(const std::vector<int>& cpus) {
  return pin(0, cpus);
}

}  // namespace exocheck::agent
