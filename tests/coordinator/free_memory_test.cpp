// The C library's free memory handed back to the system: only when at least the amount asked is
// free, so that the trim's cost (a system call per free run of pages) is paid only when it is worth
// it, and then the pages leave the process's resident set.
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "exocheck/metrics/free_memory.hpp"

namespace exocheck::metrics {
namespace {

/// This process's resident set, in bytes.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

TEST(FreeMemory, IsHandedBackOnlyWhenEnoughIsFree) {
  release_free_memory(0);  // what earlier tests left free goes first
  EXPECT_FALSE(release_free_memory(std::size_t{1} << 30));

  // 64 MB written in blocks below the mapping threshold, then freed below a block still in use:
  // most stay in the heap, free and resident, as a swing's do.
  constexpr std::size_t kBlock = 64 << 10;
  std::vector<void*> blocks;
  for (int i = 0; i < 1024; ++i) blocks.push_back(std::memset(std::malloc(kBlock), 1, kBlock));
  void* fence = std::malloc(kBlock);  // no free block of its size: taken from the heap's top
  for (void* block : blocks) std::free(block);
  ASSERT_GE(mallinfo2().fordblks, std::size_t{16} << 20);
  const std::size_t before = resident_bytes();

  EXPECT_TRUE(release_free_memory(FreeMemoryRelease::kWorthReleasing));
  EXPECT_LE(resident_bytes() + (std::size_t{16} << 20), before);
  std::free(fence);
}

}  // namespace
}  // namespace exocheck::metrics
