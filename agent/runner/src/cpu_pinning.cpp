#include "cpu_pinning.hpp"

#include <sched.h>

namespace exocheck::agent {

std::vector<int> allowed_cpus(pid_t pid) {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(pid, sizeof set, &set) != 0) return cpus;
  // Up to the last CPU set, not through all CPU_SETSIZE (1024) slots: called at every
  // exploration's start, which for small subjects is as often as every few runs.
  const auto count = static_cast<std::size_t>(CPU_COUNT(&set));
  for (int cpu = 0; cpu < CPU_SETSIZE && cpus.size() < count; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

bool pin(pid_t pid, const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int cpu : cpus) CPU_SET(cpu, &set);
  return !cpus.empty() && ::sched_setaffinity(pid, sizeof set, &set) == 0;
}

}  // namespace exocheck::agent
