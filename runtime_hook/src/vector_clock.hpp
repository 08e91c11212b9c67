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

/// Where actors start on threads of their own (a CAF program), step 0 is main's code and each
/// actor's start, each a thread: its entry counts the step-0 sends of it a step has seen (their
/// send_seq), keyed from kStepZeroSends (main's) down (an actor's start: kStepZeroSends - 1 - its
/// index). Keys from kFirstStartKey on are these, never an actor's.
inline constexpr std::uint32_t kFirstStartKey = std::uint32_t{1} << 31;
/// The key of the thread of actor `index`'s start, or of main's code (index -1).
inline std::uint32_t start_key(std::int64_t index) {
  return kStepZeroSends - static_cast<std::uint32_t>(index + 1);
}

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
