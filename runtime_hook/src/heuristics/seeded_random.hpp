#pragma once
// The random numbers of RANDOM_WALK, PCT and POS: SplitMix64 (Steele, Lea, Flood, OOPSLA 2014), written
// out rather than taken from <random>, whose distributions differ between standard libraries: a
// seed must give the same schedule wherever the hook runs.

#include <cstdint>

namespace exocheck::detail::heuristics {

class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, bound), bound > 0: draws below the largest multiple of bound are kept, so
  /// that no value is likelier than another.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
      const std::uint64_t r = next();
      if (r >= threshold) return r % bound;
    }
  }

 private:
  std::uint64_t state_;
};

}  // namespace exocheck::detail::heuristics
