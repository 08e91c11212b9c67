#pragma once
// SHA-256 (FIPS 180-4), so that the CLI and the agents can tell whether they see the same subject
// binary: a different build would make every replayed prefix diverge.

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace exocheck::agent {

/// Incremental SHA-256: feed bytes with update(), then read hex_digest() once.
class Sha256 {
 public:
  Sha256();
  /// Adds `bytes` to the message.
  void update(std::span<const std::uint8_t> bytes);
  /// Adds the bytes of `text` to the message.
  void update(std::string_view text);
  /// Pads, finishes and returns the digest as 64 lower-case hex characters. Call once.
  std::string hex_digest();

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

/// The SHA-256 of `text`, in hex.
std::string sha256_hex(std::string_view text);

/// The SHA-256 of the file at `path`, in hex. Throws std::runtime_error naming the path when it
/// cannot be read.
std::string sha256_of_file(const std::filesystem::path& path);

}  // namespace exocheck::agent
