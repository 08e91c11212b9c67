#include "exocheck/metrics/free_memory.hpp"

#include <cstdlib>  // defines __GLIBC__ where it is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace exocheck::metrics {

bool release_free_memory(std::size_t least) {
#if defined(__GLIBC__)
  // Counting what is free walks the free lists only, without a system call.
  if (mallinfo2().fordblks < least) return false;
  malloc_trim(0);
  return true;
#else
  (void)least;
  return false;
#endif
}

}  // namespace exocheck::metrics
