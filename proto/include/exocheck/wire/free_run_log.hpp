#pragma once
// The format of a free run's log (EXOCHECK_RECORD; runtime_hook/src/free_run_recording.hpp lists
// its lines): its version and its compact step record, shared by the hook, which writes it, and
// `exocheck record`, which reads it.
//
// A log begins with "V <version>" (tab-separated, as every line), then "P <program> <arg>...".
// Every change of what a line or a record holds bumps kFormatVersion, and `record` refuses a log
// of another version, both named, rather than misread it.
//
// A step of the thread-pool runtime that ended well, drew no value and names its message
// "<sender>#<n>" is the byte kCompactStep and five unsigned LEB128 numbers, with no newline: its
// Lamport time, its actor's index, its message's sender's index plus one (0: main), n, and its
// type's index. Formatting a ~35-byte text line per step cost pingpong more than the 10% a team
// can leave on in CI; these records are ~10 bytes of shifts. The indexes are named by text lines
// the same thread wrote before it used them ("A <index> <actor id>", "T <index> <type name>"),
// so that whatever part of the log a crash leaves, the names of its records are in it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace exocheck::wire::free_run_log {

/// 2: the version line. A log of version 1 had none: it began with its command line.
inline constexpr unsigned kFormatVersion = 2;
/// The first line's kind ("V\t2\n").
inline constexpr std::string_view kVersionLine = "V";
/// The command line's kind, the first line of a log of version 1.
inline constexpr std::string_view kCommandLine = "P";

/// The version `log` says it has (1 for one that begins with its command line), or nullopt when
/// it begins with neither (nothing recorded, or not a free run's log).
inline std::optional<unsigned> format_version_of(std::string_view log) {
  if (log.starts_with(kCommandLine) && log.substr(kCommandLine.size()).starts_with('\t')) return 1;
  if (!log.starts_with(kVersionLine) || !log.substr(kVersionLine.size()).starts_with('\t')) return std::nullopt;
  unsigned version = 0;
  std::size_t at = kVersionLine.size() + 1;
  for (; at < log.size() && log[at] >= '0' && log[at] <= '9' && version < 100000; ++at) {
    version = version * 10 + static_cast<unsigned>(log[at] - '0');
  }
  if (at == kVersionLine.size() + 1 || at == log.size() || log[at] != '\n') return std::nullopt;
  return version;
}

constexpr char kCompactStep = '\x01';
/// What main's messages are named after, as actors' are after their ids ("env#3").
constexpr std::string_view kMainSender = "env";
/// The most bytes a compact step takes: its marker and five numbers of at most ten bytes each.
constexpr std::size_t kMostCompactStepBytes = 1 + 5 * 10;

inline char* put_number(char* at, std::uint64_t value) {
  while (value >= 0x80) {
    *at++ = static_cast<char>(value | 0x80);
    value >>= 7;
  }
  *at++ = static_cast<char>(value);
  return at;
}

/// Reads a number at `at`, which it moves past it; false when the log ends inside it (torn) or it
/// is longer than a 64-bit number's ten bytes (garbage).
inline bool get_number(std::string_view log, std::size_t& at, std::uint64_t& value) {
  value = 0;
  for (unsigned shift = 0; shift < 70 && at < log.size(); shift += 7) {
    const auto byte = static_cast<unsigned char>(log[at++]);
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace exocheck::wire::free_run_log
