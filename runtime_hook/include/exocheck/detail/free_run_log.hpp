#pragma once
// The compact step record of a free run's log (EXOCHECK_RECORD; free_run_recording.hpp has the
// whole format): shared by the hook, which writes it, and `exocheck record`, which reads it.
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
#include <string_view>

namespace exocheck::detail::free_run_log {

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

}  // namespace exocheck::detail::free_run_log
