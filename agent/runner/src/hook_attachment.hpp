#pragma once
// How exocheck's hook gets into a subject, decided from its ELF file before anything of it runs:
// linked in (the hook's note, or the hook's or the CAF adapter's shared library among those it
// needs), or attached by preloading the CAF adapter into a program that uses CAF's shared library.
// Anything else is refused with the reason: a binary without the hook never runs.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "launch_failure.hpp"

namespace exocheck::agent {

struct HookAttachment {
  std::string preload;  ///< a library for LD_PRELOAD (the CAF adapter); empty: the hook is linked in
};

std::variant<HookAttachment, LaunchFailure> hook_attachment(const std::string& binary_path);

/// Whether `binary_path` uses CAF (it needs CAF's libcaf_core), with the adapter preloaded or linked.
/// False for a file that is no ELF binary: its launch says why.
bool uses_caf(const std::string& binary_path);

/// The CAF adapter (libexocheck_caf.so): $EXOCHECK_CAF_ADAPTER when set, else beside this program
/// (its ../lib, the installed library folder). Nullopt when it is in none of `looked_in`.
std::optional<std::string> caf_adapter_path(std::vector<std::string>& looked_in);

}  // namespace exocheck::agent
