#pragma once
// A C++ type's name as people read it in a trace: demangled, without "(anonymous namespace)::".

#include <string>

namespace exocheck::detail {

/// `mangled` (std::type_info::name()) demangled; itself when it cannot be.
std::string readable_type_name(const char* mangled);

}  // namespace exocheck::detail
