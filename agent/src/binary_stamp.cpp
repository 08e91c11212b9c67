#include "binary_stamp.hpp"

#include <sys/stat.h>

namespace exocheck::agent {

std::optional<BinaryStamp> stamp_of(const std::string& path) {
  struct ::stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  return BinaryStamp{info.st_dev, info.st_ino, info.st_size,
                     static_cast<long long>(info.st_mtim.tv_sec) * 1'000'000'000LL + info.st_mtim.tv_nsec};
}

}  // namespace exocheck::agent
