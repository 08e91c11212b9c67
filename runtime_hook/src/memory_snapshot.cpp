#include "memory_snapshot.hpp"

#include <alloca.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace exocheck::detail {
namespace {

// Linux 6.7's interface, absent from older headers (Debian 12's among them): include/uapi/linux/
// fs.h and userfaultfd.h.
struct ScanArgs {
  std::uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
  std::uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
struct ScanRegion {
  std::uint64_t start, end, categories;
};
constexpr unsigned long kPagemapScan = _IOWR('f', 16, ScanArgs);
constexpr std::uint64_t kPageWpAllowed = 1 << 0;
constexpr std::uint64_t kPageWritten = 1 << 1;
constexpr std::uint64_t kFeatureWpUnpopulated = 1 << 13;
constexpr std::uint64_t kFeatureWpAsync = 1 << 15;
constexpr int kUserModeOnly = 1;

/// Stack made part of the snapshot below the point where it is taken: a run that goes deeper
/// than this changes the layout and ends the server.
constexpr std::size_t kStackReserve = 128 * 1024;
/// Written ranges one PAGEMAP_SCAN returns at most (restore() asks again for more). The kernel
/// allocates a buffer of this many entries, up to 512, per call: 512 (12 KB) takes the page
/// allocator on every restore, 128 (3 KB) a slab cache.
constexpr std::size_t kWrittenCapacity = 128;
/// The snapshot's own descriptors: at the top of the table every process starts with (64 slots,
/// embedded in the kernel's files_struct), above the program's (a run opening files gets the
/// descriptors it would get in a process of its own, unless it opens some fifty at once), and no
/// higher: closing the run's descriptors after each run looks at every slot of the table. Four:
/// the userfaultfd, pagemap, statm and the task directory, in slots 60 to 63.
constexpr int kOwnDescriptorsFrom = 60;
constexpr std::size_t kOpenPagesPerRegion = 64;

std::size_t page_size() {
  static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::uintptr_t page_end(std::uintptr_t address) {
  return (address + page_size() - 1) / page_size() * page_size();
}

std::string error_text(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

// Touches the stack below the caller, so that the stack mapping already covers what the runs
// will use: its growth would otherwise change the layout on every run. Reading is enough, and maps
// the shared zero page instead of allocating one per page.
[[gnu::noinline]] void reserve_stack() {
  auto* bottom = static_cast<volatile unsigned char*>(alloca(kStackReserve));
  unsigned char sink = 0;
  for (std::size_t offset = 0; offset < kStackReserve; offset += page_size()) sink ^= bottom[offset];
  asm volatile("" : : "r"(sink));
}

struct Mapping {
  std::uintptr_t begin;
  std::uintptr_t end;
  bool private_writable;
  bool anonymous;  ///< no file behind it (the heap, the stack, malloc's large blocks)
};

/// This process's mappings (/proc/self/maps); empty when it cannot be read.
std::vector<Mapping> read_mappings() {
  std::vector<Mapping> mappings;
  const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return mappings;
  std::string text;
  char chunk[8192];
  for (;;) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(chunk, static_cast<std::size_t>(got));
  }
  ::close(fd);
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    unsigned long begin = 0, finish = 0, offset = 0, inode = 0;
    unsigned major = 0, minor = 0;
    char permissions[5] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %4s %lx %x:%x %lu", &begin, &finish, permissions, &offset, &major, &minor,
                    &inode) != 7) {
      continue;
    }
    mappings.push_back({begin, finish, permissions[1] == 'w' && permissions[3] == 'p', inode == 0});
  }
  return mappings;
}

/// `range` minus every excluded range (widened to whole pages), appended to `out`.
void subtract(AddressRange range, std::span<const AddressRange> excluded, std::vector<AddressRange>& out) {
  for (AddressRange cut : excluded) {
    cut = {cut.begin / page_size() * page_size(), page_end(cut.end)};
    if (cut.end <= range.begin || cut.begin >= range.end) continue;
    if (cut.begin > range.begin) subtract({range.begin, cut.begin}, excluded, out);
    if (cut.end < range.end) subtract({cut.end, range.end}, excluded, out);
    return;
  }
  out.push_back(range);
}

// Closing a run's descriptors looks at every slot of the descriptor table, and a process's table
// is as large as its parent's was at fork, exec or not: 256 slots under a shell, which holds
// descriptor 255. unshare(CLONE_FILES) makes a table as large as the open descriptors need, but
// only while another task shares the table: a helper process shares it for that moment.
void shrink_descriptor_table() {
  int ready[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) return;
  const pid_t server = ::getpid();
  // No exit signal: the program's own SIGCHLD handler, if any, never hears of the helper.
  const long helper = ::syscall(SYS_clone, CLONE_FILES, nullptr, nullptr, nullptr, nullptr);
  if (helper == 0) {
    // A copy of this process sharing its table: it waits for the unshare below, then leaves; or
    // with the server, if that dies first (its table keeps the pipe's write end open).
    ::syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    char byte = 0;
    if (::syscall(SYS_getppid) == server) ::syscall(SYS_read, ready[0], &byte, 1);
    ::syscall(SYS_exit_group, 0);
  }
  if (helper > 0) {
    ::unshare(CLONE_FILES);
    const char byte = 0;
    [[maybe_unused]] const auto written = ::write(ready[1], &byte, 1);
    ::waitpid(static_cast<pid_t>(helper), nullptr, __WCLONE);
  }
  ::close(ready[0]);
  ::close(ready[1]);
}

}  // namespace

std::size_t threads_listed_in(int tasks_fd) {
  if (tasks_fd < 0 || ::lseek(tasks_fd, 0, SEEK_SET) != 0) return 0;
  alignas(dirent64) char entries[4096];
  // getdents64 fills the buffer while the next entry fits: with room left for the longest entry a
  // task's can be (a number), the listing is whole, and the call that would return 0 is not made.
  constexpr long kRoomForAnEntry = 64;
  std::size_t count = 0;
  while (true) {
    const long bytes = ::syscall(SYS_getdents64, tasks_fd, entries, sizeof entries);
    if (bytes < 0) return 0;
    if (bytes == 0) return count;
    for (long at = 0; at < bytes;) {
      const auto* entry = reinterpret_cast<const dirent64*>(entries + at);
      if (entry->d_name[0] != '.') ++count;
      at += entry->d_reclen;
    }
    if (static_cast<long>(sizeof entries) - bytes >= kRoomForAnEntry) return count;
  }
}

struct MemorySnapshot::PageRegion : ScanRegion {};

std::unique_ptr<MemorySnapshot> MemorySnapshot::take(std::span<const AddressRange> excluded, std::string& why) {
  reserve_stack();
  std::unique_ptr<MemorySnapshot> snapshot(new MemorySnapshot());
  if (!snapshot->track(why)) return nullptr;

  std::size_t bytes = 0;
  for (const Mapping& mapping : read_mappings()) {
    if (!mapping.private_writable) continue;
    std::vector<AddressRange> ranges;
    subtract({mapping.begin, mapping.end}, excluded, ranges);
    for (const AddressRange& range : ranges) {
      snapshot->regions_.push_back({range.begin, range.end, bytes, mapping.anonymous});
      bytes += range.end - range.begin;
    }
  }
  if (snapshot->regions_.empty()) {
    why = "cannot read /proc/self/maps";
    return nullptr;
  }

  // Descriptors: the program's open now must still be open after a run; the others are the run's.
  shrink_descriptor_table();
  const int own[] = {snapshot->uffd_, snapshot->pagemap_, snapshot->statm_, snapshot->tasks_};
  if (DIR* fds = ::opendir("/proc/self/fd")) {
    while (const dirent* entry = ::readdir(fds)) {
      if (entry->d_name[0] == '.') continue;
      const int fd = std::atoi(entry->d_name);
      if (fd != ::dirfd(fds) && std::find(std::begin(own), std::end(own), fd) == std::end(own))
        snapshot->open_fds_.push_back(fd);
    }
    ::closedir(fds);
  }
  std::sort(snapshot->open_fds_.begin(), snapshot->open_fds_.end());
  snapshot->kept_fds_ = snapshot->open_fds_;
  snapshot->kept_fds_.insert(snapshot->kept_fds_.end(), std::begin(own), std::end(own));
  std::sort(snapshot->kept_fds_.begin(), snapshot->kept_fds_.end());

  // The copy and the scan's answer live in mappings of their own, made after the list above, so
  // that they are not part of what they describe.
  void* copy = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  void* written = ::mmap(nullptr, kWrittenCapacity * sizeof(PageRegion), PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED || written == MAP_FAILED) {
    why = error_text("cannot map the snapshot");
    if (copy != MAP_FAILED) ::munmap(copy, bytes);
    if (written != MAP_FAILED) ::munmap(written, kWrittenCapacity * sizeof(PageRegion));
    return nullptr;
  }
  snapshot->copy_ = static_cast<char*>(copy);
  snapshot->copy_bytes_ = bytes;
  snapshot->written_ = static_cast<PageRegion*>(written);
  snapshot->brk_ = static_cast<std::uintptr_t>(::syscall(SYS_brk, 0));

  for (const Region& region : snapshot->regions_) {
    if (!snapshot->protect(region)) {
      why = error_text("cannot write-protect the process's memory");
      return nullptr;
    }
  }
  ScanArgs probe{};
  probe.size = sizeof probe;
  probe.start = snapshot->regions_.empty() ? 0 : snapshot->regions_.front().begin;
  probe.end = probe.start + page_size();
  probe.vec = reinterpret_cast<std::uintptr_t>(snapshot->written_);
  probe.vec_len = kWrittenCapacity;
  probe.category_mask = probe.return_mask = kPageWritten;
  if (::ioctl(snapshot->pagemap_, kPagemapScan, &probe) < 0) {
    why = error_text("the kernel cannot list written pages (PAGEMAP_SCAN, Linux 6.7)");
    return nullptr;
  }
  snapshot->mapped_pages_ = snapshot->mapped_pages();
  if (snapshot->mapped_pages_ <= 0) {
    why = "cannot read /proc/self/statm";
    return nullptr;
  }
  // Last: from here on, every write is tracked and put back to what this copy holds.
  for (const Region& region : snapshot->regions_) {
    std::memcpy(snapshot->copy_ + region.copy_offset, reinterpret_cast<const void*>(region.begin),
                region.end - region.begin);
  }
  return snapshot;
}

bool MemorySnapshot::track(std::string& why) {
  uffd_ = static_cast<int>(::syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | kUserModeOnly));
  if (uffd_ < 0) {
    why = error_text("no userfaultfd");
    return false;
  }
  uffdio_api api{};
  api.api = UFFD_API;
  api.features = kFeatureWpAsync | kFeatureWpUnpopulated;
  if (::ioctl(uffd_, UFFDIO_API, &api) != 0) {
    why = error_text("no asynchronous write-protection in userfaultfd (Linux 6.7)");
    return false;
  }
  pagemap_ = ::open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  statm_ = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  tasks_ = ::open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (pagemap_ < 0 || statm_ < 0 || tasks_ < 0) {
    why = error_text("cannot open /proc/self/pagemap, statm or task");
    return false;
  }
  for (int* fd : {&uffd_, &pagemap_, &statm_, &tasks_}) {
    const int moved = ::fcntl(*fd, F_DUPFD_CLOEXEC, kOwnDescriptorsFrom);
    if (moved < 0) continue;
    ::close(*fd);
    *fd = moved;
  }
  return true;
}

MemorySnapshot::~MemorySnapshot() {
  for (int fd : {uffd_, pagemap_, statm_, tasks_}) {
    if (fd >= 0) ::close(fd);
  }
  if (copy_ != nullptr) ::munmap(copy_, copy_bytes_);
  if (written_ != nullptr) ::munmap(written_, kWrittenCapacity * sizeof(PageRegion));
}

bool MemorySnapshot::protect(const Region& region) const {
  // Huge pages would make a run that writes one byte copy back two megabytes.
  ::madvise(reinterpret_cast<void*>(region.begin), region.end - region.begin, MADV_NOHUGEPAGE);
  uffdio_register registration{};
  registration.range = {region.begin, region.end - region.begin};
  registration.mode = UFFDIO_REGISTER_MODE_WP;
  uffdio_writeprotect protection{};
  protection.range = registration.range;
  protection.mode = UFFDIO_WRITEPROTECT_MODE_WP;
  return ::ioctl(uffd_, UFFDIO_REGISTER, &registration) == 0 && ::ioctl(uffd_, UFFDIO_WRITEPROTECT, &protection) == 0;
}

long MemorySnapshot::mapped_pages() const {
  char text[64];
  const ssize_t got = ::pread(statm_, text, sizeof text - 1, 0);
  if (got <= 0) return -1;
  text[got] = '\0';
  return std::strtol(text, nullptr, 10);
}

// One poll() answers for several descriptors (POLLNVAL: closed) where fcntl() takes a system call
// each. The array is on the stack, which the run has written: a heap page written here would be
// one more to put back.
int MemorySnapshot::closed_descriptor() const {
  constexpr std::size_t kPolledAtOnce = 16;
  pollfd polled[kPolledAtOnce];
  for (std::size_t first = 0; first < open_fds_.size(); first += kPolledAtOnce) {
    const std::size_t count = std::min(kPolledAtOnce, open_fds_.size() - first);
    for (std::size_t i = 0; i < count; ++i) polled[i] = {open_fds_[first + i], 0, 0};
    if (::poll(polled, count, 0) < 0) {
      for (std::size_t i = 0; i < count; ++i) {
        if (::fcntl(polled[i].fd, F_GETFD) < 0) return polled[i].fd;
      }
      continue;
    }
    for (std::size_t i = 0; i < count; ++i) {
      if ((polled[i].revents & POLLNVAL) != 0) return polled[i].fd;
    }
  }
  return -1;
}

std::string MemorySnapshot::layout_change() {
  const auto brk = static_cast<std::uintptr_t>(::syscall(SYS_brk, 0));
  if (brk < brk_) return "the run gave heap back to the system (brk below its value at System::run())";
  if (const int closed = closed_descriptor(); closed >= 0) return "the run closed descriptor " + std::to_string(closed);
  // Every other descriptor is the run's: closed, as the end of its process would.
  unsigned first = 0;
  for (int fd : kept_fds_) {
    if (static_cast<unsigned>(fd) > first) ::close_range(first, static_cast<unsigned>(fd) - 1, 0);
    first = static_cast<unsigned>(fd) + 1;
  }
  ::close_range(first, ~0U, 0);
  return "";
}

// A region the run unmapped, whole or in part (free() of a block malloc had mapped before the
// snapshot): mapped anew in place, whole, and filled from the copy.
bool MemorySnapshot::remap(const Region& region) const {
  const std::size_t bytes = region.end - region.begin;
  void* at = reinterpret_cast<void*>(region.begin);
  if (!region.anonymous ||
      ::mmap(at, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != at)
    return false;
  std::memcpy(at, copy_ + region.copy_offset, bytes);
  return protect(region);
}

MemorySnapshot::Restored MemorySnapshot::restore() {
  const auto brk = static_cast<std::uintptr_t>(::syscall(SYS_brk, 0));
  if (brk > brk_) ::syscall(SYS_brk, brk_);
  if (mapped_pages() == mapped_pages_) {
    return put_back_written(0, regions_.size()) ? Restored::exactly : Restored::failed;
  }
  for (std::size_t i = 0; i < regions_.size(); ++i) {
    const Region& region = regions_[i];
    // madvise() fails with ENOMEM when part of the range is not mapped.
    if (::madvise(reinterpret_cast<void*>(region.begin), region.end - region.begin, MADV_NOHUGEPAGE) != 0) {
      if (!remap(region)) return Restored::failed;
    } else if (!put_back_written(i, i + 1)) {
      return Restored::failed;
    }
  }
  // Unchanged before, unchanged after: nothing above maps or unmaps but remap().
  return mapped_pages() == mapped_pages_ ? Restored::exactly : Restored::mappings_changed;
}

// One scan from the first region's start to the last one's end answers for all of them: a scan is
// a system call, and a program with a dozen writable mappings (a CAF program's libraries) paid for
// a dozen on every run. The scan walks only the mappings this snapshot registered (kPageWpAllowed
// is required); those between the regions are skipped, their pages would all count as written.
bool MemorySnapshot::put_back_written(std::size_t first, std::size_t last) const {
  ScanArgs scan{};
  scan.size = sizeof scan;
  scan.start = regions_[first].begin;
  scan.end = regions_[last - 1].end;
  scan.vec = reinterpret_cast<std::uintptr_t>(written_);
  scan.vec_len = kWrittenCapacity;
  scan.category_mask = kPageWritten | kPageWpAllowed;
  scan.return_mask = kPageWritten;
  std::size_t region = first;
  std::size_t written = 0;  // pages of regions_[region] copied back
  // A page left unprotected is reported written by every scan, so it is copied back after every
  // run: for the few pages each run writes anyway, that is cheaper than a fault per run and per
  // page. Past kOpenPagesPerRegion pages, the region is protected again, whole at once (one TLB
  // flush), so that a run writing much does not make every later restore copy it all.
  const auto next_region = [&] {
    const Region& done = regions_[region++];
    const std::size_t pages = std::exchange(written, 0);
    if (pages <= kOpenPagesPerRegion) return true;
    uffdio_writeprotect protection{};
    protection.range = {done.begin, done.end - done.begin};
    protection.mode = UFFDIO_WRITEPROTECT_MODE_WP;
    return ::ioctl(uffd_, UFFDIO_WRITEPROTECT, &protection) == 0;
  };
  for (;;) {
    const long found = ::ioctl(pagemap_, kPagemapScan, &scan);
    if (found < 0) return false;
    for (long i = 0; i < found; ++i) {
      // A range the kernel merged may cross from one region into the next.
      for (std::uintptr_t start = written_[i].start; start < written_[i].end;) {
        while (region < last && regions_[region].end <= start) {
          if (!next_region()) return false;
        }
        if (region == last) break;  // past the last region: not ours
        const Region& into = regions_[region];
        const std::uintptr_t end = std::min<std::uintptr_t>(written_[i].end, into.end);
        if (start >= into.begin) {
          std::memcpy(reinterpret_cast<void*>(start), copy_ + into.copy_offset + (start - into.begin), end - start);
          written += (end - start) / page_size();
          start = end;
        } else {
          start = std::min<std::uintptr_t>(written_[i].end, into.begin);  // between regions: not ours
        }
      }
    }
    if (scan.walk_end >= scan.end) break;
    scan.start = scan.walk_end;
  }
  while (region < last) {
    if (!next_region()) return false;
  }
  return true;
}

}  // namespace exocheck::detail
