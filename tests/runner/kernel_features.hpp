#pragma once
// What the kernel running the tests offers, for tests whose expectations depend on it.

#include <sys/utsname.h>

#include <cstdio>

namespace exocheck::agent::testing {

/// Whether this kernel lets a fork server perform its runs in place: asynchronous write-protection
/// (userfaultfd) and PAGEMAP_SCAN came with Linux 6.7.
inline bool kernel_runs_in_place() {
  utsname name{};
  int major = 0, minor = 0;
  if (::uname(&name) != 0 || std::sscanf(name.release, "%d.%d", &major, &minor) != 2) return false;
  return major > 6 || (major == 6 && minor >= 7);
}

}  // namespace exocheck::agent::testing
