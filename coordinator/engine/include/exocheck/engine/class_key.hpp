#pragma once
// A fixed-size name for a Mazurkiewicz class that every explorer of one exploration gives it
// alike, so that explorers of different subtrees (agents) report their classes in 16 bytes each
// and the classes are counted exactly across them. It is a 128-bit hash of the class's canonical
// form (canonical_form in explorer.hpp): two classes share a key with a probability of about
// n^2 / 2^129 among n classes, below 1e-20 for a billion.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_set>

namespace exocheck::engine {

struct ClassKey {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  friend auto operator<=>(const ClassKey&, const ClassKey&) = default;
};

/// For hashed containers: the key is a hash already.
struct ClassKeyHash {
  std::size_t operator()(const ClassKey& key) const { return static_cast<std::size_t>(key.high ^ key.low); }
};
/// Distinct keys. Hashed: a coordinator unites every lease's keys (40,320 of them in registry K=7),
/// and a tree's insertions were a twentieth of its CPU at a thousand agents.
using ClassKeySet = std::unordered_set<ClassKey, ClassKeyHash>;

/// The key of the class whose canonical form is `canonical_form`.
ClassKey class_key_of(std::string_view canonical_form);

}  // namespace exocheck::engine
