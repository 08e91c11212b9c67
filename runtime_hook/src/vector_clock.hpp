#pragma once
// Sparse vector clocks over actors, keyed by the actor's dense index (ActorCell::index).
// VC(step) = max(VC(actor's previous step or creating step), VC(step that sent the message)),
// then the actor's own entry + 1 (DESIGN.md, "Vector clocks").

#include <cstdint>
#include <utility>
#include <vector>

namespace exocheck::detail {

/// Not an actor's entry: the latest step-0 send (its send_seq) delivered in a step's causal past.
/// Causal delivery orders main's messages by it (delivery_order.hpp); traces never show it.
inline constexpr std::uint32_t kStepZeroSends = ~std::uint32_t{0};

class VectorClock {
 public:
  using Entry = std::pair<std::uint32_t, std::uint32_t>;  ///< (actor index, count), sorted by index

  /// Entry-wise maximum with `other`.
  void merge(const VectorClock& other);
  /// Increments the entry of actor `index`.
  void tick(std::uint32_t index);
  /// Raises the entry of `index` to at least `count`.
  void raise(std::uint32_t index, std::uint32_t count);
  /// The count for actor `index` (0 when absent).
  std::uint32_t at(std::uint32_t index) const;
  /// True when every entry of this clock is <= the same entry of `other` (happens-before or equal).
  bool precedes_or_equals(const VectorClock& other) const;

  const std::vector<Entry>& entries() const { return entries_; }
  friend bool operator==(const VectorClock&, const VectorClock&) = default;

 private:
  std::vector<Entry> entries_;
};

}  // namespace exocheck::detail
