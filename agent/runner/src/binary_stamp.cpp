#include "binary_stamp.hpp"

#include <sys/stat.h>

namespace exocheck::agent {

std::optional<BinaryStamp> stamp_of(const std::string& path) {
  struct ::stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  const auto nanoseconds = [](const timespec& time) {
    return static_cast<long long>(time.tv_sec) * 1'000'000'000LL + time.tv_nsec;
  };
  return BinaryStamp{info.st_dev, info.st_ino, info.st_size, nanoseconds(info.st_mtim), nanoseconds(info.st_ctim)};
}

}  // namespace exocheck::agent
