#include "type_name.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <string_view>

namespace exocheck::detail {

std::string readable_type_name(const char* mangled) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && demangled != nullptr ? demangled : mangled;
  std::free(demangled);
  constexpr std::string_view kAnonymous = "(anonymous namespace)::";
  for (auto at = name.find(kAnonymous); at != std::string::npos; at = name.find(kAnonymous, at)) {
    name.erase(at, kAnonymous.size());
  }
  return name;
}

}  // namespace exocheck::detail
