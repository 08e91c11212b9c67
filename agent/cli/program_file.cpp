#include "program_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace exocheck::cli {

std::string program_file(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string_view folders = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!folders.empty()) {
    const std::size_t colon = std::min(folders.find(':'), folders.size());
    const auto candidate = std::filesystem::path(folders.substr(0, colon)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    folders.remove_prefix(std::min(colon + 1, folders.size()));
  }
  return program;
}

}  // namespace exocheck::cli
