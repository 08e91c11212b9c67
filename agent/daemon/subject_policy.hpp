#pragma once
// Which binaries an agent agrees to run for whoever reaches its coordinator: those under its
// subjects folder, or those whose SHA-256 is on its allow-list; and of those, only ones the
// exocheck hook is in (hook_attachment.hpp), decided from the file, before anything of it runs.

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace exocheck::agent {

struct SubjectPolicy {
  /// Canonical (symbolic links resolved); a subject must resolve to a file under it.
  std::optional<std::filesystem::path> subjects_dir;
  std::set<std::string> allowed_sha256;  ///< lower-case hex digests

  /// From the agent's flags: `dir` (may be empty) made canonical, and the digests read from
  /// `allow_files` (one per line, `sha256sum`'s format accepted, # comments). Throws
  /// std::invalid_argument naming the folder or file and what is wrong with it.
  static SubjectPolicy from_flags(const std::string& dir, const std::vector<std::string>& allow_files);

  /// Why `canonical_subject`, with SHA-256 `digest`, may not run here; nothing when it may.
  std::optional<std::string> refusal(const std::filesystem::path& canonical_subject, const std::string& digest) const;

  /// For the log: "subjects under /srv/subjects, or 3 allowed digests".
  std::string description() const;
};

}  // namespace exocheck::agent
