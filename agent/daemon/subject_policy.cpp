#include "subject_policy.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <stdexcept>

namespace exocheck::agent {
namespace {

bool is_sha256_hex(const std::string& text) {
  return text.size() == 64 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

bool is_under(const std::filesystem::path& path, const std::filesystem::path& dir) {
  auto part = path.begin();
  for (const auto& element : dir) {
    if (element.empty()) continue;  // a trailing separator
    if (part == path.end() || *part != element) return false;
    ++part;
  }
  return part != path.end();
}

}  // namespace

SubjectPolicy SubjectPolicy::from_flags(const std::string& dir, const std::vector<std::string>& allow_files) {
  SubjectPolicy policy;
  if (!dir.empty()) {
    std::error_code error;
    auto canonical = std::filesystem::canonical(dir, error);
    if (error) throw std::invalid_argument("--subjects-dir " + dir + ": " + error.message());
    if (!std::filesystem::is_directory(canonical))
      throw std::invalid_argument("--subjects-dir " + dir + ": not a folder");
    policy.subjects_dir = std::move(canonical);
  }
  for (const auto& file : allow_files) {
    std::ifstream in(file);
    if (!in) throw std::invalid_argument("--allow-sha256 " + file + ": cannot be read");
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      std::string digest = line.substr(first, line.find_first_of(" \t\r", first) - first);
      std::transform(digest.begin(), digest.end(), digest.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (!is_sha256_hex(digest)) {
        throw std::invalid_argument("--allow-sha256 " + file + " line " + std::to_string(number) +
                                    ": not a SHA-256 digest (64 hex digits): " + digest);
      }
      policy.allowed_sha256.insert(std::move(digest));
    }
  }
  return policy;
}

std::optional<std::string> SubjectPolicy::refusal(const std::filesystem::path& canonical_subject,
                                                  const std::string& digest) const {
  if (subjects_dir && is_under(canonical_subject, *subjects_dir)) return std::nullopt;
  if (allowed_sha256.count(digest) != 0) return std::nullopt;
  return "subject " + canonical_subject.string() + " is not one this agent runs: " + description() + " (sha256 " +
         digest + "); nothing was run";
}

std::string SubjectPolicy::description() const {
  std::string text;
  if (subjects_dir) text = "subjects under " + subjects_dir->string();
  if (!allowed_sha256.empty()) {
    text += (text.empty() ? "" : ", or ") + std::to_string(allowed_sha256.size()) + " allowed SHA-256 digest" +
            (allowed_sha256.size() == 1 ? "" : "s");
  }
  return text.empty() ? "no subject allowed" : text;
}

}  // namespace exocheck::agent
