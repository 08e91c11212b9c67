#include "subject_check.hpp"

#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#include "sha256.hpp"

namespace exocheck::agent {

std::optional<std::string> refusal_reason(const proto::JobOffer& offer) {
  const std::filesystem::path subject = offer.subject();
  std::error_code error;
  if (!std::filesystem::exists(subject, error)) return "subject " + subject.string() + " does not exist on this agent";
  if (!std::filesystem::is_regular_file(subject, error))
    return "subject " + subject.string() + " is not a regular file";
  if (access(subject.c_str(), X_OK) != 0) return "subject " + subject.string() + " is not executable on this agent";
  try {
    const auto digest = sha256_of_file(subject);
    if (digest != offer.sha256()) {
      return "subject " + subject.string() + " is a different build here: sha256 " + digest + ", the job's is " +
             offer.sha256();
    }
  } catch (const std::runtime_error& failure) {
    return failure.what();
  }
  return std::nullopt;
}

}  // namespace exocheck::agent
