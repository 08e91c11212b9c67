#pragma once
// What share of its CPUs' time a measurement was not given. On a virtual machine the hypervisor
// takes vCPUs away (steal time) when its host is busy, more than half of the time in some of this
// machine's minutes: a rate measured then says more about the host than about exocheck. And what
// the CPUs spent idle: the time the workers left unused.

#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace exocheck::bench {

/// /proc/stat's counters (in clock ticks) of some CPUs, summed.
struct CpuTicks {
  std::uint64_t total = 0;
  std::uint64_t idle = 0;    ///< idle and iowait
  std::uint64_t stolen = 0;  ///< steal: runnable, but the hypervisor ran something else
};

/// The counters of `cpus` (numbered as the kernel numbers them) in the text of /proc/stat; CPUs
/// the text does not list count nothing.
CpuTicks cpu_ticks_in(std::string_view proc_stat, const std::vector<int>& cpus);
/// The same, read from /proc/stat now; all zero when it cannot be read.
CpuTicks cpu_ticks(const std::vector<int>& cpus);

/// {"stolen": s, "idle": i}: fractions of the CPUs' time between the two readings (0 when none passed).
nlohmann::json cpu_shares(const CpuTicks& before, const CpuTicks& after);

/// `rate` as it would have been with every CPU's time given: rate / (1 - stolen share).
double rate_with_cpus_given(double rate, const nlohmann::json& measurement);

}  // namespace exocheck::bench
