#pragma once
// The backtrack requests a lease has raised lately, so that a race found again on another path
// goes to its owner once (SubtreeSessions). Under optimal DPOR a subtree raises a few distinct
// requests per path it explores (minesweeper: four), so remembering every one made a long lease's
// memory grow with its paths. Remembered are the latest, in two generations of at most `kept`
// each: when the newer fills, the older goes. A request older than both may go again, which the
// owner takes as the same race (a sequence already in its wakeup tree is covered there).

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_set>

#include "exocheck/engine/class_key.hpp"

namespace exocheck::agent {

class RaisedRequests {
 public:
  /// Per generation: 2^15 keys (about 56 bytes each in the set, 4 MB for both), the distinct
  /// requests a lease of minesweeper raised in 15 seconds.
  static constexpr std::size_t kKept = std::size_t{1} << 15;

  RaisedRequests() = default;
  explicit RaisedRequests(std::size_t kept) : kept_(kept) {}

  /// True when the request `wire` (its wire form) is not among those remembered: it is now.
  bool first_time(std::string_view wire);

 private:
  struct Hash {
    std::size_t operator()(const engine::ClassKey& key) const { return static_cast<std::size_t>(key.low); }
  };
  using Generation = std::unordered_set<engine::ClassKey, Hash>;

  std::size_t kept_ = kKept;
  Generation newer_;
  Generation older_;
};

}  // namespace exocheck::agent
