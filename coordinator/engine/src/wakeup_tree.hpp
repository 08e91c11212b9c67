#pragma once
// Wakeup trees (Abdulla, Aronis, Jonsson, Sagonas: "Source Sets: A Foundation for Optimal Dynamic
// Partial Order Reduction", JACM 2017, Section 6) for this model: an event is the delivery of one
// message to its receiver; which events are dependent, and which come after the delivery that sent
// their message, is dependency.hpp's to say.

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "names.hpp"

namespace exocheck::engine {

struct WakeupEvent {
  Key message = kNoKey;
  Key receiver = kNoKey;
  /// The message whose delivery, earlier in the same sequence, sent this one; kNoKey when it was
  /// pending where the sequence starts.
  Key sender = kNoKey;
  /// Not known to be enabled where it is delivered: a guard may hold it back (race.cpp's races
  /// with a message sent after the racing step). Such an event covers only sequences that
  /// deliver it themselves.
  bool tentative = false;

  bool same_delivery(const WakeupEvent& other) const { return message == other.message && receiver == other.receiver; }
};

using WakeupSequence = std::vector<WakeupEvent>;

/// The index of `p` in `w` when p is one of w's initials (no earlier event of w is dependent with
/// it or sent its message), else nothing.
std::optional<std::size_t> initial_position(const WakeupSequence& w, const WakeupEvent& p);
/// p ∈ WI(w), the weak initials: an initial of w, or absent from w and independent of all of it.
bool weak_initial(const WakeupSequence& w, const WakeupEvent& p);

class WakeupTree {
 public:
  WakeupTree() = default;
  WakeupTree(WakeupTree&&) noexcept = default;
  WakeupTree& operator=(WakeupTree&&) noexcept = default;
  WakeupTree(const WakeupTree&) = delete;  // branches are owned: moved down the path, never copied
  WakeupTree& operator=(const WakeupTree&) = delete;

  bool empty() const { return branches_.empty(); }
  std::size_t branches() const { return branches_.size(); }
  /// The first branch's event; the tree must not be empty.
  const WakeupEvent& first() const { return branches_.front().event; }

  /// Takes out the first branch (the ≺-smallest): its event and subtree.
  std::pair<WakeupEvent, WakeupTree> take_first();
  /// Takes out the branch whose event delivers `message`, if there is one.
  std::optional<WakeupTree> take(Key message);
  /// The events of the leftmost path from here to a leaf.
  WakeupSequence leftmost() const;

  /// insert_[E](v): descends through the first branch whose event is a weak initial of what is
  /// left of v (removing it from v when v delivers it); a leaf reached covers v, and otherwise the
  /// rest of v becomes the new last branch where the descent stopped.
  void insert(WakeupSequence v);

  /// The tree as (depth, event) in preorder, depth 1 for the root's branches: what a subtree given
  /// away carries, rebuilt by from_preorder.
  std::vector<std::pair<std::size_t, WakeupEvent>> preorder() const;
  static WakeupTree from_preorder(const std::vector<std::pair<std::size_t, WakeupEvent>>& nodes);

 private:
  struct Branch {
    WakeupEvent event;
    std::unique_ptr<WakeupTree> subtree;
  };
  std::vector<Branch> branches_;
};

}  // namespace exocheck::engine
