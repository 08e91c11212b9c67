#include "exocheck/metrics/free_memory.hpp"

#include <algorithm>
#include <cstdlib>  // defines __GLIBC__ where it is glibc
#include <fstream>

#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace exocheck::metrics {

std::size_t free_bytes() {
#if defined(__GLIBC__)
  return mallinfo2().fordblks;
#else
  return 0;
#endif
}

bool release_free_memory(std::size_t least) {
#if defined(__GLIBC__)
  if (free_bytes() < least) return false;
  malloc_trim(0);
  return true;
#else
  (void)least;
  return false;
#endif
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  std::size_t resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

bool FreeMemoryRelease::now_and_then(std::chrono::steady_clock::time_point now) {
  if (now - looked_ < kPeriod) return false;
  looked_ = now;
  const std::size_t resident = resident_bytes();
  floor_ = std::min(floor_, resident);
  if (resident < floor_ + kWorthReleasing || !release_free_memory(kWorthReleasing)) return false;
  floor_ = resident_bytes();
  return true;
}

}  // namespace exocheck::metrics
