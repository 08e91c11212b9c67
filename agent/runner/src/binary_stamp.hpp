#pragma once
// What tells one build of a subject binary from another without reading it: a rebuilt binary is a
// new file (a new inode) or the same file rewritten (a new size, modification or change time, in
// nanoseconds). A fork server outlives a run, and in exocheck-agent a job: it must not serve runs
// of a binary that has been rebuilt since it started. The agent also keeps a binary's SHA-256 by
// its stamp, instead of reading the whole file for every job.

#include <sys/types.h>

#include <optional>
#include <string>

namespace exocheck::agent {

struct BinaryStamp {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  long long modified_ns = 0;  ///< modification time, in nanoseconds since the epoch
  long long changed_ns = 0;   ///< status change time (a write, a rename, a chmod), likewise

  bool operator==(const BinaryStamp&) const = default;
};

/// The stamp of the file at `path` (following symbolic links), or nullopt when it cannot be read.
std::optional<BinaryStamp> stamp_of(const std::string& path);

}  // namespace exocheck::agent
