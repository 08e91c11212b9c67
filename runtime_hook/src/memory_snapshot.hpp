#pragma once
// A copy of this process's private writable memory, and the means to put it back after a run, so
// that a fork server can perform its runs in its own process instead of forking one per run. The
// kernel write-protects every tracked page (userfaultfd with asynchronous write-protection: a
// write only clears a bit, nothing stops) and reports the pages written since (PAGEMAP_SCAN), so a
// restore copies back only those: a run pays a cheap fault per page it writes instead of a fork,
// an exit and a copy-on-write fault per page.
//
// What a restore cannot undo it reports instead: the heap shrunk or descriptors of the snapshot
// closed (layout_change()), mappings left behind or a file's memory unmapped (restore()). The
// server then ends after that run.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace exocheck::detail {

struct AddressRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};

/// Threads of this process, listed in its /proc/self/task directory open at `tasks_fd` (read from
/// its start, into the stack); 0 when that cannot be read.
std::size_t threads_listed_in(int tasks_fd);

class MemorySnapshot {
 public:
  /// Snapshots every private writable mapping but `excluded`. nullptr, with `why`, when the kernel
  /// cannot track writes (no userfaultfd, no asynchronous write-protection, no PAGEMAP_SCAN).
  static std::unique_ptr<MemorySnapshot> take(std::span<const AddressRange> excluded, std::string& why);
  ~MemorySnapshot();
  MemorySnapshot(const MemorySnapshot&) = delete;
  MemorySnapshot& operator=(const MemorySnapshot&) = delete;

  /// Threads of this process now, 0 when they cannot be counted. Its task directory stays open
  /// with the snapshot's own descriptors: opendir() per run (an open, a malloc, a close) was an
  /// eighth of a short run's time in the subject.
  std::size_t running_threads() const { return threads_listed_in(tasks_); }

  /// What a run changed that restore() cannot undo, for people; "" when nothing. Closes the
  /// descriptors the run left open, as the end of a process would.
  std::string layout_change();

  enum class Restored {
    exactly,           ///< the memory is the snapshot's again
    mappings_changed,  ///< it is, but the run left mappings of its own (or a deeper stack) behind
    failed,            ///< the kernel refused, or the run unmapped a file's memory: not usable
  };

  /// Gives back the heap the run added, maps anew what the run unmapped, then copies back every
  /// page written since the snapshot or the last restore and protects it again. Allocates
  /// nothing and writes no tracked memory but the pages it copies back, so it must run on a
  /// stack that is not tracked.
  Restored restore();

 private:
  struct Region {
    std::uintptr_t begin;
    std::uintptr_t end;
    std::size_t copy_offset;  ///< where this region's bytes start in copy_
    bool anonymous;           ///< no file behind it: it can be mapped anew
  };
  struct PageRegion;

  MemorySnapshot() = default;
  bool track(std::string& why);
  bool protect(const Region& region) const;
  bool remap(const Region& region) const;
  /// Copies back every page the run wrote in regions_[first, last), in one scan.
  bool put_back_written(std::size_t first, std::size_t last) const;
  long mapped_pages() const;
  /// One of open_fds_ that is closed now, or -1.
  int closed_descriptor() const;

  int uffd_ = -1;
  int pagemap_ = -1;
  int statm_ = -1;
  int tasks_ = -1;  ///< /proc/self/task
  std::vector<Region> regions_;
  std::vector<int> open_fds_;  ///< the program's descriptors open at the snapshot
  std::vector<int> kept_fds_;  ///< those and the snapshot's own, sorted
  char* copy_ = nullptr;       ///< the regions' bytes, in a mapping of its own (not tracked)
  std::size_t copy_bytes_ = 0;
  PageRegion* written_ = nullptr;  ///< PAGEMAP_SCAN's answer, in a mapping of its own
  std::uintptr_t brk_ = 0;
  long mapped_pages_ = 0;
};

}  // namespace exocheck::detail
