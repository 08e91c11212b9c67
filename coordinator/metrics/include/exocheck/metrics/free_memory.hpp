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

/// Bytes the C library holds free in its arenas, the pages it handed back included (glibc's
/// mallinfo2, which walks the free lists only, without a system call); 0 elsewhere than glibc.
std::size_t free_bytes();

/// Returns the free pages of every arena to the system (glibc's malloc_trim) when the arenas hold
/// at least `least` bytes free; true when it did. Trimming holds each arena's lock while it makes
/// a system call per free run of pages: on minesweeper it took 10 ms as a rule and up to 0.5 s on
/// a loaded machine, so it is worth it only when much is free. Elsewhere than glibc, nothing.
bool release_free_memory(std::size_t least);

/// This process's resident set in bytes (/proc/self/statm), 0 where it cannot be read.
std::size_t resident_bytes();

/// release_free_memory() for a loop that comes by often (an agent's reporter, the embedded
/// explorer's progress loop, the coordinator's ticker): at most once a second, from 8 MB free
/// (about a fifth of what an agent, an embedded explorer or a coordinator holds in use), and only
/// when the resident set grew by as much since the last trim. glibc counts the pages it handed
/// back as free still, so a heap that once had 8 MB free was trimmed every second for nothing;
/// pages written again since (a swing that reused them) show in the resident set.
class FreeMemoryRelease {
 public:
  static constexpr std::chrono::seconds kPeriod{1};
  static constexpr std::size_t kWorthReleasing = std::size_t{8} << 20;

  /// True when it trimmed.
  bool now_and_then(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

 private:
  std::chrono::steady_clock::time_point looked_{};
  /// The least resident set seen since the last trim (0 before the first).
  std::size_t floor_ = 0;
};

}  // namespace exocheck::metrics
