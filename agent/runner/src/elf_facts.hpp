#pragma once
// What the file header of an executable says about it, read without running it: whether it is a
// 64-bit ELF file, the notes it carries, and the shared libraries it needs (DT_NEEDED).

#include <string>
#include <variant>
#include <vector>

namespace exocheck::agent {

struct ElfNote {
  std::string name;
  unsigned type = 0;
  std::string descriptor;  ///< its bytes
};

struct ElfFacts {
  std::vector<ElfNote> notes;       ///< from its PT_NOTE segments
  std::vector<std::string> needed;  ///< sonames, in the order the dynamic linker loads them
};

/// Why `path` could not be read as a 64-bit little-endian ELF executable, as a phrase ("is not an
/// ELF file", "is truncated").
struct NotElf {
  std::string why;
};

std::variant<ElfFacts, NotElf> read_elf_facts(const std::string& path);

}  // namespace exocheck::agent
