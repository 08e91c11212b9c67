#include "exocheck/message.hpp"

#include <cxxabi.h>

#include <atomic>
#include <cstdlib>
#include <memory>

namespace exocheck::detail {

std::uint32_t next_message_type_index() {
  static std::atomic<std::uint32_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::string demangle(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(mangled);
}

std::string strip_qualifiers(std::string_view demangled) {
  // "(anonymous namespace)" contains a space, which would otherwise look like a separator.
  static constexpr std::string_view kAnonymous = "(anonymous namespace)::";
  std::string plain(demangled);
  for (auto at = plain.find(kAnonymous); at != std::string::npos; at = plain.find(kAnonymous, at)) {
    plain.erase(at, kAnonymous.size());
  }
  demangled = plain;
  // Copy character by character; whenever "::" appears, forget the qualifier written since the
  // last separator at the same template depth ('<', ',', ' ' or the start).
  std::string out;
  std::size_t segment_start = 0;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    const char c = demangled[i];
    if (c == ':' && i + 1 < demangled.size() && demangled[i + 1] == ':') {
      out.resize(segment_start);
      ++i;
      continue;
    }
    out += c;
    if (c == '<' || c == ',' || c == ' ' || c == '(') segment_start = out.size();
  }
  return out;
}

}  // namespace exocheck::detail
