#pragma once
// The definition an interposed symbol hides: the next one in the dynamic linker's search order
// (CAF's or glibc's), found once by its mangled name.

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace exocheck::caf_adapter {

template <typename Function>
Function real_function(const char* symbol) {
  void* found = ::dlsym(RTLD_NEXT, symbol);
  if (found == nullptr) {
    // Only a CAF other than the one the adapter was built against gets here: say which.
    std::fprintf(stderr, "exocheck: the CAF adapter cannot find %s after itself (CAF 0.17 expected): %s\n", symbol,
                 ::dlerror());
    std::abort();
  }
  return reinterpret_cast<Function>(found);
}

}  // namespace exocheck::caf_adapter
