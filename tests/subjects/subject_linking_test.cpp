// How the subjects are linked (runtime_hook/CMakeLists.txt): as static PIEs, so that no dynamic
// loading runs per subject process and their first exception finds a sorted unwind table instead
// of sorting one (3 to 5 ms, in every run that throws); and with protobuf's lite runtime only, whose
// start-up registers no descriptors.

#include <elf.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::string bin(const std::string& name) {
  return std::string(EXOCHECK_BIN_DIR) + "/" + name;
}

std::string contents_of(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

/// The program header types of an ELF64 file.
std::vector<std::uint32_t> segment_types(const std::string& elf) {
  std::vector<std::uint32_t> types;
  if (elf.size() < sizeof(Elf64_Ehdr)) return types;
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(elf.data());
  for (unsigned i = 0; i < header->e_phnum; ++i) {
    const std::size_t at = header->e_phoff + i * std::size_t{header->e_phentsize};
    if (at + sizeof(Elf64_Phdr) > elf.size()) break;
    types.push_back(reinterpret_cast<const Elf64_Phdr*>(elf.data() + at)->p_type);
  }
  return types;
}

bool has(const std::vector<std::uint32_t>& types, std::uint32_t type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

TEST(SubjectLinking, SubjectsAreStaticPiesWithASortedUnwindTableAndNoProtobufDescriptors) {
  for (const std::string name : {"registry", "serverreal", "pi"}) {
    const std::string elf = contents_of(bin(name));
    ASSERT_GE(elf.size(), sizeof(Elf64_Ehdr)) << name;
    EXPECT_EQ(reinterpret_cast<const Elf64_Ehdr*>(elf.data())->e_type, ET_DYN) << name << ": not position-independent";
    const auto types = segment_types(elf);
    EXPECT_FALSE(has(types, PT_INTERP)) << name << ": dynamically linked";
    EXPECT_TRUE(has(types, PT_GNU_EH_FRAME)) << name << ": no sorted unwind table";
    // The full runtime registers its descriptors through this function; the lite one has none.
    EXPECT_EQ(elf.find("InternalAddGeneratedFile"), std::string::npos)
        << name << ": linked with protobuf's full runtime";
  }
}

}  // namespace
