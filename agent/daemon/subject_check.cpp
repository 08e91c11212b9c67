#include "subject_check.hpp"

#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#include "hook_attachment.hpp"
#include "sha256.hpp"

namespace exocheck::agent {

std::optional<std::string> SubjectCheck::refusal_reason(const proto::JobOffer& offer) {
  const std::filesystem::path subject = offer.subject();
  std::error_code error;
  if (!std::filesystem::exists(subject, error)) return "subject " + subject.string() + " does not exist on this agent";
  if (!std::filesystem::is_regular_file(subject, error))
    return "subject " + subject.string() + " is not a regular file";
  if (access(subject.c_str(), X_OK) != 0) return "subject " + subject.string() + " is not executable on this agent";
  const auto canonical = std::filesystem::canonical(subject, error);
  if (error) return "subject " + subject.string() + ": " + error.message();
  std::string digest;
  try {
    digest = digest_of(canonical.string());
  } catch (const std::runtime_error& failure) {
    return failure.what();
  }
  if (auto refused = policy_.refusal(canonical, digest)) return refused;
  if (digest != offer.sha256()) {
    return "subject " + subject.string() + " is a different build here: sha256 " + digest + ", the job's is " +
           offer.sha256();
  }
  // A script, or a program without the hook: refused before it runs, never found out after.
  const auto attachment = hook_attachment(canonical.string());
  if (const auto* failure = std::get_if<LaunchFailure>(&attachment)) return failure->detail;
  return std::nullopt;
}

std::string SubjectCheck::digest_of(const std::string& path) {
  // Stamped before reading: a file replaced while it is read gets another stamp, so its digest is
  // not kept under the new build's stamp.
  const auto stamp = stamp_of(path);
  {
    std::lock_guard lock(mutex_);
    const auto kept = digests_.find(path);
    if (stamp && kept != digests_.end() && kept->second.first == *stamp) return kept->second.second;
  }
  auto digest = sha256_of_file(path);
  if (stamp) {
    std::lock_guard lock(mutex_);
    digests_[path] = {*stamp, digest};
  }
  return digest;
}

}  // namespace exocheck::agent
