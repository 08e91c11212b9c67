#include "elf_facts.hpp"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <optional>

#include "unique_fd.hpp"

namespace exocheck::agent {
namespace {

/// Reads `bytes` at `offset`; false when the file is shorter.
bool read_at(int fd, void* into, std::size_t bytes, std::uint64_t offset) {
  auto* out = static_cast<char*>(into);
  while (bytes > 0) {
    const ssize_t n = ::pread(fd, out, bytes, static_cast<off_t>(offset));
    if (n <= 0) return false;
    out += n;
    bytes -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

std::optional<std::string> read_bytes(int fd, std::uint64_t offset, std::uint64_t size) {
  if (size > (std::uint64_t{1} << 24)) return std::nullopt;  // no header part is this large
  std::string bytes(size, '\0');
  if (!read_at(fd, bytes.data(), bytes.size(), offset)) return std::nullopt;
  return bytes;
}

std::uint64_t align4(std::uint64_t n) {
  return (n + 3) & ~std::uint64_t{3};
}

void collect_notes(const std::string& segment, std::vector<ElfNote>& notes) {
  std::uint64_t at = 0;
  while (at + sizeof(Elf64_Nhdr) <= segment.size()) {
    Elf64_Nhdr header;
    std::memcpy(&header, segment.data() + at, sizeof header);
    at += sizeof header;
    const std::uint64_t name_end = at + align4(header.n_namesz);
    if (name_end > segment.size()) return;
    std::string name(segment.data() + at, header.n_namesz);
    if (!name.empty() && name.back() == '\0') name.pop_back();
    const std::uint64_t descriptor_end = name_end + header.n_descsz;
    if (descriptor_end > segment.size()) return;
    notes.push_back({std::move(name), header.n_type, segment.substr(name_end, header.n_descsz)});
    at = name_end + align4(header.n_descsz);
  }
}

/// The file offset of virtual address `address`, through the loadable segments.
std::optional<std::uint64_t> file_offset(const std::vector<Elf64_Phdr>& segments, std::uint64_t address) {
  for (const auto& segment : segments) {
    if (segment.p_type == PT_LOAD && address >= segment.p_vaddr && address < segment.p_vaddr + segment.p_filesz) {
      return address - segment.p_vaddr + segment.p_offset;
    }
  }
  return std::nullopt;
}

void collect_needed(int fd, const std::vector<Elf64_Phdr>& segments, const Elf64_Phdr& dynamic,
                    std::vector<std::string>& needed) {
  const auto bytes = read_bytes(fd, dynamic.p_offset, dynamic.p_filesz);
  if (!bytes) return;
  std::vector<Elf64_Dyn> entries(bytes->size() / sizeof(Elf64_Dyn));
  std::memcpy(entries.data(), bytes->data(), entries.size() * sizeof(Elf64_Dyn));
  std::uint64_t strtab = 0, strsz = 0;
  for (const auto& entry : entries) {
    if (entry.d_tag == DT_STRTAB) strtab = entry.d_un.d_ptr;
    if (entry.d_tag == DT_STRSZ) strsz = entry.d_un.d_val;
  }
  const auto offset = file_offset(segments, strtab);
  if (!offset || strsz == 0) return;
  const auto strings = read_bytes(fd, *offset, strsz);
  if (!strings) return;
  for (const auto& entry : entries) {
    if (entry.d_tag == DT_NULL) break;
    if (entry.d_tag != DT_NEEDED || entry.d_un.d_val >= strings->size()) continue;
    needed.emplace_back(strings->c_str() + entry.d_un.d_val);
  }
}

}  // namespace

std::variant<ElfFacts, NotElf> read_elf_facts(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return NotElf{std::string("cannot be read: ") + std::strerror(errno)};
  Elf64_Ehdr header;
  if (!read_at(fd.get(), &header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return NotElf{"is not an ELF executable (a script?)"};
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
    return NotElf{"is not a 64-bit little-endian ELF executable"};
  }
  if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0) return NotElf{"has no program headers"};
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (!read_at(fd.get(), segments.data(), segments.size() * sizeof(Elf64_Phdr), header.e_phoff)) {
    return NotElf{"is truncated (its program headers are missing)"};
  }
  ElfFacts facts;
  for (const auto& segment : segments) {
    if (segment.p_type == PT_NOTE) {
      if (auto bytes = read_bytes(fd.get(), segment.p_offset, segment.p_filesz)) collect_notes(*bytes, facts.notes);
    } else if (segment.p_type == PT_DYNAMIC) {
      collect_needed(fd.get(), segments, segment, facts.needed);
    }
  }
  return facts;
}

}  // namespace exocheck::agent
