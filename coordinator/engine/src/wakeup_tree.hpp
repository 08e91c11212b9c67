#pragma once
// Wakeup trees (Abdulla, Aronis, Jonsson, Sagonas: "Source Sets: A Foundation for Optimal Dynamic
// Partial Order Reduction", JACM 2017, Section 6) for this model: an event is the delivery of one
// message to its receiver; which events are dependent, and which come after the delivery that sent
// their message, is dependency.hpp's to say.

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "dependency.hpp"
#include "exocheck/engine/subtree.hpp"
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
  /// A delivery whose handler makes choices (exocheck::choose): a run takes this label only where
  /// a prefix names it, so no leaf covers a sequence that holds it (dependency.md, "Choices").
  bool chosen = false;
  /// The message `message` is a label of, when the label names choices made (kNoKey: `message` is
  /// the message itself).
  Key label_of = kNoKey;
  /// Not an event: the rest of a sequence cut short (its last), dependent with every event, so that
  /// no event after it is an initial and none is independent of all of the sequence. Never a branch.
  bool rest = false;
  /// The monitors' lanes its delivery notified on where it ran, or every lane when it may (not run
  /// yet, another choice of its handler) (dependency.hpp).
  MonitorLanes notifies = MonitorLanes::none();

  static WakeupEvent rest_of_sequence() {
    return {.message = dependency::kEveryLane, .receiver = dependency::kEveryLane, .rest = true};
  }

  bool same_delivery(const WakeupEvent& other) const { return message == other.message && receiver == other.receiver; }
  Key delivered() const { return label_of == kNoKey ? message : label_of; }
  /// The same message to the same receiver, its handler's choices made otherwise.
  bool other_label(const WakeupEvent& other) const {
    return receiver == other.receiver && message != other.message && delivered() == other.delivered();
  }
};

using WakeupSequence = std::vector<WakeupEvent>;

/// The index of `p` in `w` when p is one of w's initials (no earlier event of w is dependent with
/// it or sent its message), else nothing.
std::optional<std::size_t> initial_position(const WakeupSequence& w, const WakeupEvent& p);
/// p ∈ WI(w), the weak initials: an initial of w, or absent from w and independent of all of it.
bool weak_initial(const WakeupSequence& w, const WakeupEvent& p);
/// The index of an initial of w that is another label of `delivered`'s message, if there is one.
/// A guard that holds one label back holds them all, tentative or not.
std::optional<std::size_t> other_label_position(const WakeupSequence& w, const WakeupEvent& delivered);

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
  /// The events the tree holds (a node's and its chain's each count one).
  std::size_t events() const;

  /// insert_[E](v): descends through the first branch whose event is a weak initial of what is
  /// left of v (removing it from v when v delivers it); a leaf reached covers v (unless v holds a
  /// chosen event), and otherwise the rest of v becomes the new last branch where the descent stopped.
  /// A branch that delivers another label of one of v's initials stops the descent: that label's
  /// branch takes v (insert_below). A sequence cut short (WakeupEvent::rest) ends in a leaf that
  /// covers nothing below it (Branch::bare).
  void insert(WakeupSequence v);
  /// `event` as a branch of the root of its own, not merged into another: a delivery's choice made
  /// otherwise is explored from where the delivery was. False when a branch delivers it already.
  /// Such a branch, a leaf, covers no sequence that goes below it (Branch::bare). It is one of the
  /// root's, so preorder() of a branch's subtree, what a subtree given away carries, holds none.
  bool add_branch(WakeupEvent event);
  /// v, which starts with `first`, below the root's branch for `first` (a new last one if none),
  /// as insert() has it.
  void insert_below(WakeupEvent first, WakeupSequence rest);

  /// The tree as (depth, event) in preorder, depth 1 for the root's branches: what a subtree given
  /// away carries, rebuilt by from_preorder.
  std::vector<std::pair<std::size_t, WakeupEvent>> preorder() const;
  static WakeupTree from_preorder(const std::vector<std::pair<std::size_t, WakeupEvent>>& nodes);

 private:
  struct Branch {
    WakeupEvent event;
    /// What follows the last event of `chain` (of `event` when it is empty); nothing: a leaf.
    std::unique_ptr<WakeupTree> subtree;
    /// Events after `event` along which each node has one branch, the next event: a sequence grown
    /// here stays a row until another one leaves it there (split() then makes that node), so it
    /// costs an event's space per event rather than a node's (issue 50: a shallow configuration's
    /// tree holds a sequence for most paths explored below it, each adding several events).
    std::vector<WakeupEvent> chain;
    /// Added by add_branch, and no sequence has ended at it since: a label to explore from here,
    /// no race's reversal. Algorithm 2 lets a leaf u cover a sequence v compatible with it: a
    /// sequence a race puts into the tree of a configuration E while a choice p taken there is
    /// explored reverses that race, so it holds an event dependent with p, and p, asleep below u
    /// (explored before it, independent of its first event), wakes along u; what v orders
    /// otherwise after u, races there find again. An alternative's label holds no such event:
    /// the choices taken before its delivery's first label stay asleep below it, and the races
    /// there that v needs (two deliveries at one lane reordered) are dropped as covered by such a
    /// choice, whose subtree does not hold v's reversal of it. So v goes into this branch instead.
    bool bare = false;
  };

  /// The subtree of `branch`, made (from its chain) if need be.
  static WakeupTree& below(Branch& branch);
  /// Makes the node after the first `k` events of `branch`'s chain (k <= its size) a tree of its
  /// own, `branch`'s subtree: what follows is below it, the chain's event k its one branch.
  static void split(Branch& branch, std::size_t k);
  /// The subtree of `branch`, taken out of it.
  static WakeupTree take_below(Branch& branch);

  /// v into this tree: the configuration's own (`through` nullptr), or the subtree of `through`.
  void descend(WakeupSequence v, Branch* through);
  /// Adds `events` as a path of new last branches from here.
  void grow(const WakeupSequence& events);

  std::vector<Branch> branches_;
};

/// A wakeup tree's event as subtrees and backtrack requests carry it (WakeupStep), and back.
WakeupEvent event_named(const WakeupStep& step, Names& names);
WakeupStep step_named(const WakeupEvent& event, const Names& names);

}  // namespace exocheck::engine
