#include "hook_attachment.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "elf_facts.hpp"
#include "exocheck/wire/hook_note.hpp"

namespace exocheck::agent {
namespace {

bool starts_with(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

/// The hook's note, or nullptr when the program carries none.
const ElfNote* hook_note(const ElfFacts& facts) {
  for (const auto& note : facts.notes) {
    if (note.name == wire::kHookNoteName && note.type == wire::kHookNoteType) return &note;
  }
  return nullptr;
}

/// The protocol version a hook's note names (its descriptor, a 32-bit number), 0 when it is not one.
std::uint32_t protocol_of(const ElfNote& note) {
  std::uint32_t version = 0;
  if (note.descriptor.size() == sizeof version) std::memcpy(&version, note.descriptor.data(), sizeof version);
  return version;
}

}  // namespace

std::optional<std::string> caf_adapter_path(std::vector<std::string>& looked_in) {
  namespace fs = std::filesystem;
  if (const char* chosen = std::getenv("EXOCHECK_CAF_ADAPTER"); chosen != nullptr && *chosen != '\0') {
    looked_in.emplace_back(chosen);
    return ::access(chosen, R_OK) == 0 ? std::optional<std::string>(chosen) : std::nullopt;
  }
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  for (const char* relative : {"../lib", EXOCHECK_LIBDIR_FROM_BINDIR}) {
    const fs::path candidate = (self.parent_path() / relative / "libexocheck_caf.so").lexically_normal();
    looked_in.push_back(candidate.string());
    if (::access(candidate.c_str(), R_OK) == 0) return candidate.string();
  }
  return std::nullopt;
}

bool uses_caf(const std::string& binary_path) {
  const auto read = read_elf_facts(binary_path);
  const auto* facts = std::get_if<ElfFacts>(&read);
  return facts != nullptr && std::any_of(facts->needed.begin(), facts->needed.end(), [](const std::string& library) {
           return starts_with(library, "libcaf_core.so");
         });
}

std::variant<HookAttachment, LaunchFailure> hook_attachment(const std::string& binary_path) {
  auto read = read_elf_facts(binary_path);
  if (auto* not_elf = std::get_if<NotElf>(&read)) {
    return LaunchFailure{
        fmt::format("{} {}: exocheck runs programs linked with its hook or written with CAF; nothing "
                    "was run",
                    binary_path, not_elf->why)};
  }
  const auto& facts = std::get<ElfFacts>(read);
  if (const ElfNote* note = hook_note(facts)) {
    // A hook of another version reads run requests otherwise: it would ignore what it does not
    // know and be explored as if it honoured it (rr refuses a mismatched preload library alike).
    if (protocol_of(*note) == wire::kProtocolVersion) return HookAttachment{};
    return LaunchFailure{fmt::format(
        "{} carries an exocheck hook that speaks protocol version {}, this exocheck speaks version {}: rebuild it "
        "against this exocheck's hook (exocheck::hook); nothing was run",
        binary_path, protocol_of(*note), wire::kProtocolVersion)};
  }
  bool uses_caf = false;
  for (const auto& library : facts.needed) {
    if (starts_with(library, "libexocheck_hook.so") || starts_with(library, "libexocheck_caf.so")) {
      return HookAttachment{};
    }
    uses_caf = uses_caf || starts_with(library, "libcaf_core.so");
  }
  if (!uses_caf) {
    return LaunchFailure{
        fmt::format("{} is not linked with the exocheck hook and uses no actor framework exocheck attaches to (CAF's "
                    "libcaf_core): link it with exocheck::hook, or build it with CAF; nothing was run",
                    binary_path)};
  }
  std::vector<std::string> looked_in;
  auto adapter = caf_adapter_path(looked_in);
  if (!adapter) {
    return LaunchFailure{fmt::format(
        "{} uses CAF, but exocheck's CAF adapter is not where it was looked for ({}): install exocheck whole, or "
        "name the adapter in EXOCHECK_CAF_ADAPTER; nothing was run",
        binary_path, fmt::join(looked_in, ", "))};
  }
  return HookAttachment{std::move(*adapter)};
}

}  // namespace exocheck::agent
