// The C library's free memory handed back to the system: only when at least the amount asked is
// free, so that the trim's cost (a system call per free run of pages) is paid only when it is worth
// it, and then the pages leave the process's resident set.
#include <gtest/gtest.h>
#include <malloc.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "exocheck/metrics/free_memory.hpp"

namespace exocheck::metrics {
namespace {

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

// Once handed back, pages are counted free still: a loop that trimmed whenever 8 MB were free would
// trim every second for nothing. It trims again when pages were written since (a swing reusing the
// free ones) and freed.
TEST(FreeMemory, IsHandedBackAgainOnlyWhenMoreWasFreedSince) {
  release_free_memory(0);
  FreeMemoryRelease release;
  auto now = std::chrono::steady_clock::now();
  const auto a_second_later = [&] { return now += FreeMemoryRelease::kPeriod; };
  std::vector<void*> fences;
  // 32 MB freed below a fence, as in the test above.
  const auto swing = [&] {
    constexpr std::size_t kBlock = 64 << 10;
    std::vector<void*> blocks;
    for (int i = 0; i < 512; ++i) blocks.push_back(std::memset(std::malloc(kBlock), 1, kBlock));
    fences.push_back(std::malloc(kBlock));
    for (void* block : blocks) std::free(block);
  };
  swing();
  ASSERT_GE(free_bytes(), std::size_t{16} << 20);
  EXPECT_TRUE(release.now_and_then(a_second_later()));
  EXPECT_GE(free_bytes(), FreeMemoryRelease::kWorthReleasing) << "handed back, counted free still";
  EXPECT_FALSE(release.now_and_then(a_second_later())) << "nothing written and freed since";
  swing();
  EXPECT_FALSE(release.now_and_then(now)) << "not within a second of the last look";
  EXPECT_TRUE(release.now_and_then(a_second_later()));
  for (void* fence : fences) std::free(fence);
}

}  // namespace
}  // namespace exocheck::metrics
