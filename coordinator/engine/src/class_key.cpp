#include "exocheck/engine/class_key.hpp"

#include <algorithm>
#include <cstring>

namespace exocheck::engine {
namespace {

// splitmix64's finaliser: a bijection of 64-bit words in which every input bit reaches every
// output bit.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

std::uint64_t rotate(std::uint64_t x, int bits) {
  return (x << bits) | (x >> (64 - bits));
}

}  // namespace

// Two lanes that take each 8-byte word differently (xor, and an add of the word rotated) from
// different starts, each mixed after every word, then mixed with each other.
ClassKey class_key_of(std::string_view canonical_form) {
  std::uint64_t a = 0x243f6a8885a308d3ULL ^ canonical_form.size();
  std::uint64_t b = 0x13198a2e03707344ULL + canonical_form.size();
  for (std::size_t i = 0; i < canonical_form.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, canonical_form.data() + i, std::min<std::size_t>(8, canonical_form.size() - i));
    a = mix(a ^ word);
    b = mix(b + rotate(word, 29));
  }
  return ClassKey{mix(a ^ rotate(b, 17)), mix(b ^ rotate(a, 41))};
}

}  // namespace exocheck::engine
