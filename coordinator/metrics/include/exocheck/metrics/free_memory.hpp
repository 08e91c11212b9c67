#pragma once
// Hands the C library's free memory back to the system. A long-lived process's heap swings: an
// agent's report of backtrack requests, a Work message of routed ones, a lease's session destroyed
// at its end, the coordinator's requests held until their agent has them, are each megabytes to
// tens of megabytes made and freed on one thread or another, and glibc keeps what a thread's arena
// once held (it gives back only the top of a heap), so the process's RSS rose to its largest swing
// on every arena and stayed there, growing with the job though little was in use.

#include <chrono>
#include <cstddef>

namespace exocheck::metrics {

/// Returns the free pages of every arena to the system (glibc's malloc_trim) when the arenas hold
/// at least `least` bytes free; true when it did. Trimming holds each arena's lock while it makes
/// a system call per free run of pages: on minesweeper it took 10 ms as a rule and up to 0.5 s on
/// a loaded machine, so it is worth it only when much is free. Elsewhere than glibc, nothing.
bool release_free_memory(std::size_t least);

/// release_free_memory() for a loop that comes by often (an agent's reporter, the embedded
/// explorer's progress loop, the coordinator's ticker): at most once a second, from 8 MB free
/// (about a fifth of what an agent, an embedded explorer or a coordinator holds in use).
class FreeMemoryRelease {
 public:
  static constexpr std::chrono::seconds kPeriod{1};
  static constexpr std::size_t kWorthReleasing = std::size_t{8} << 20;

  void now_and_then(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now()) {
    if (now - released_ < kPeriod) return;
    released_ = now;
    release_free_memory(kWorthReleasing);
  }

 private:
  std::chrono::steady_clock::time_point released_{};
};

}  // namespace exocheck::metrics
