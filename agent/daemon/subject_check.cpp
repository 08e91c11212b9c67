#include "subject_check.hpp"

#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#include "sha256.hpp"

namespace exocheck::agent {

std::optional<std::string> SubjectCheck::refusal_reason(const proto::JobOffer& offer) {
  const std::filesystem::path subject = offer.subject();
  std::error_code error;
  if (!std::filesystem::exists(subject, error)) return "subject " + subject.string() + " does not exist on this agent";
  if (!std::filesystem::is_regular_file(subject, error))
    return "subject " + subject.string() + " is not a regular file";
  if (access(subject.c_str(), X_OK) != 0) return "subject " + subject.string() + " is not executable on this agent";
  try {
    const auto digest = digest_of(subject.string());
    if (digest != offer.sha256()) {
      return "subject " + subject.string() + " is a different build here: sha256 " + digest + ", the job's is " +
             offer.sha256();
    }
  } catch (const std::runtime_error& failure) {
    return failure.what();
  }
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
