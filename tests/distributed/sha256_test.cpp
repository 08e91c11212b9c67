// SHA-256 against the FIPS 180-4 / NIST test vectors, and the file digest against the text digest.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "sha256.hpp"

namespace exocheck::agent {
namespace {

TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) {
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlockMessage) {
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, PaddingThatNeedsASecondBlock) {
  // 56 bytes: the length no longer fits in the first padded block.
  EXPECT_EQ(sha256_hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(sha256_hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST(Sha256, MillionAsFedInUnevenPieces) {
  Sha256 hash;
  std::size_t fed = 0;
  for (std::size_t piece = 1; fed < 1'000'000; piece = piece % 97 + 1) {
    const auto size = std::min(piece, 1'000'000 - fed);
    hash.update(std::string(size, 'a'));
    fed += size;
  }
  EXPECT_EQ(hash.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, FileDigestEqualsTextDigest) {
  const auto path = std::filesystem::temp_directory_path() / ("exocheck-sha-" + std::to_string(getpid()));
  const std::string text(200'000, 'x');
  std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(sha256_of_file(path), sha256_hex(text));
  std::filesystem::remove(path);
}

TEST(Sha256, MissingFileIsNamed) {
  try {
    sha256_of_file("/nonexistent/exocheck-subject");
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/exocheck-subject"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace exocheck::agent
