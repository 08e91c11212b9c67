#pragma once
// Whether this agent can run a job's subject: the binary exists here, is executable, is one the
// agent's policy allows (subject_policy.hpp), carries the exocheck hook, and is the very build the
// client submitted (same SHA-256; a different build would make every replay diverge). All decided
// from the file: nothing of a refused subject runs.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "binary_stamp.hpp"
#include "proto/coordinator.pb.h"
#include "subject_policy.hpp"

namespace exocheck::agent {

/// Checks job offers, and keeps each binary's SHA-256 by its stamp (binary_stamp.hpp): reading a
/// large subject for its digest takes longer than a small job. A binary whose
/// stamp changed is read again; a rewrite in place of the same size within one tick of the file
/// clock after the last check would not be seen, which no build is fast enough to do. Thread-safe.
class SubjectCheck {
 public:
  explicit SubjectCheck(SubjectPolicy policy) : policy_(std::move(policy)) {}

  /// Why this agent refuses `offer` (one line naming the path and the digests), or nothing when it
  /// can run it.
  std::optional<std::string> refusal_reason(const proto::JobOffer& offer);

 private:
  /// The file's SHA-256; throws std::runtime_error when it cannot be read.
  std::string digest_of(const std::string& path);

  const SubjectPolicy policy_;
  std::mutex mutex_;
  std::map<std::string, std::pair<BinaryStamp, std::string>> digests_;  ///< path -> stamp, digest
};

}  // namespace exocheck::agent
