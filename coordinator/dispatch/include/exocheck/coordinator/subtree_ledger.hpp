#pragma once
// The coordinator's book of subtree leases (DESIGN.md, "Distribution"): which worker explores which
// subtree, who gave each away, which lease owns the configuration a backtrack request names, and
// when the whole exploration is done. The explorers themselves live with the workers (agents);
// the ledger holds no tree, only prefixes, and no I/O, so that the daemon's transport and the
// engine's tests drive the same rules.
//
// A lease's life: the whole tree waits first; a worker takes it; while another worker is idle and
// nothing waits, the shallowest lease being explored is asked to split (its subtree holds the
// most work), and what it gives away waits to be taken; its races above its root are routed to
// their owners; once explored, with its requests delivered, it is finished, and its giver is told
// (Explorer::subtree_finished), which may then finish in turn.
//
// What it holds is bounded by the leases not finished, never by those done: a finished lease whose
// own gifts are all folded is folded into its giver (its figures added to the giver's, to be taken
// back together should the giver be released, and the notice its giver's explorer must have), and
// forgotten. A lease void with its giver's release is forgotten at once.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "exocheck/engine/class_key.hpp"
#include "exocheck/engine/stats.hpp"
#include "exocheck/engine/subtree.hpp"

namespace exocheck::coordinator {

class SubtreeLedger {
 public:
  /// A subtree a worker took, under the ledger's id.
  struct Taken {
    std::uint64_t lease = 0;
    engine::Subtree subtree;
  };
  /// A finished lease's giver and the giver's id of the subtree, for Explorer::subtree_finished.
  struct Giver {
    std::uint64_t lease = 0;
    std::uint64_t subtree_id = 0;
    std::uint64_t holding = 0;  ///< which taking of the giver's lease gave it (see release())
  };

  /// The whole tree (below `root_prefix`'s deliveries: explore --from) waits to be taken.
  explicit SubtreeLedger(std::vector<std::string> root_prefix = {});

  /// The longest-waiting subtree, now `worker`'s; nothing when none waits.
  std::optional<Taken> take(std::uint64_t worker);
  /// The lease to ask for a split: the shallowest taken one not asked already (marked asked), or
  /// nothing; among those `may_ask` allows, when given.
  std::optional<std::uint64_t> lease_to_split(const std::function<bool(std::uint64_t lease)>& may_ask = {});
  /// `lease`'s worker gave `subtree` away (Explorer::split): it waits to be taken. Returns its id.
  std::uint64_t split_off(std::uint64_t lease, engine::Subtree subtree);
  /// `lease`'s worker had nothing to give away: it may be asked again later.
  void nothing_to_split(std::uint64_t lease);
  /// The unfinished lease whose subtree's prefix is the longest prefix of `prefix`: the owner of
  /// the configuration a backtrack request names.
  std::optional<std::uint64_t> owner_of(const std::vector<std::string>& prefix) const;
  /// `lease` is explored and the requests it made are delivered. Returns its giver, to be told,
  /// unless the giver's subtree has been released since it gave this one away: the explorer now
  /// holding it never gave it, and explores its part itself.
  std::optional<Giver> finish(std::uint64_t lease);
  /// What release() did.
  struct Released {
    std::vector<std::uint64_t> waiting;  ///< the worker's leases, waiting again
    /// Leases given away from those (transitively) and not finished: void now, to be dropped by
    /// their workers (when they have one) without being counted.
    std::vector<std::pair<std::uint64_t, std::optional<std::uint64_t>>> dropped;
  };
  /// `worker` is gone: its unfinished leases wait again, first in line, each to be explored anew
  /// from its root by whoever takes it. Whatever they had given away is void, since their next
  /// explorer explores it itself: the unfinished parts are dropped, and the figures of the finished
  /// ones are taken back (their class keys stay: the classes are the same; classes counted without
  /// keys are taken back too), so that no path is counted twice.
  Released release(std::uint64_t worker);
  /// `lease` alone waits again (its worker came back without it), as release() does it.
  Released release_lease(std::uint64_t lease);
  /// The unfinished leases `worker` explores.
  std::vector<std::uint64_t> held_by(std::uint64_t worker) const;
  /// What `lease`'s current explorer gave away and is finished: the notices it must have had.
  std::vector<Giver> finished_children(std::uint64_t lease) const;
  /// Leases taken and not finished.
  std::size_t out() const;
  /// True once every lease, the whole tree's first, is finished.
  bool finished() const;

  /// The worker exploring `lease` now: nothing while it waits, once it is finished, or when unknown.
  std::optional<std::uint64_t> worker_of(std::uint64_t lease) const;
  /// A distinct bug's figures (coordinator/bug_groups.hpp), under its signature's key.
  struct BugFigures {
    std::uint64_t paths = 0;
    std::set<engine::ClassKey> classes;
    std::uint64_t counted_classes = 0;  ///< without keys (engine::counts_classes)
  };
  using BugsFigures = std::map<std::string, BugFigures>;
  /// Counts `lease`'s figures, once it is explored: `stats` added, its classes by `keys` united, or
  /// without keys (an explorer that counts its classes, engine::counts_classes) by its count; and so
  /// its distinct bugs' paths and classes.
  void count(std::uint64_t lease, const engine::Stats& stats, const std::vector<engine::ClassKey>& keys,
             const BugsFigures& bugs = {});
  /// The exploration's figures; classes are the distinct keys counted.
  engine::Stats stats() const;
  /// The distinct bugs' figures, taken back with the leases' as release() says.
  const BugsFigures& bugs() const { return bugs_; }
  std::size_t waiting() const { return waiting_.size(); }
  /// Whether some lease may be asked to split (lease_to_split may find one).
  bool splittable() const { return !splittable_.empty(); }
  /// Subtrees taken so far, each time counted (a released one is taken again).
  std::uint64_t takings() const { return takings_; }
  /// Leases held in the book: the unfinished ones, and the finished ones some of whose gifts are not.
  std::size_t held_leases() const { return leases_.size(); }

  /// Figures count() added, to be taken back should they become void.
  struct Counted {
    engine::Stats stats;
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> bugs;  ///< paths, classes counted
    void add(const Counted& more);
  };

  /// One lease in the book.
  struct Entry {
    engine::Subtree subtree;
    std::optional<std::uint64_t> worker;
    std::optional<Giver> giver;
    std::uint64_t holding = 0;            ///< times taken
    std::vector<std::uint64_t> children;  ///< leases split off this one by its current explorer, not folded
    Counted counted;                      ///< what count() added for it
    Counted folded;                       ///< what count() added for the gifts folded into it (fold())
    std::vector<Giver> notices;           ///< of those gifts: what its current explorer must have been told
    bool asked = false;
    bool finished = false;
  };

  /// All the book holds, for a compacted journal (coordinator/dispatch/src/ledger_image.cpp).
  struct Image {
    std::map<std::uint64_t, Entry> leases;
    std::deque<std::uint64_t> waiting;
    std::uint64_t next_id = 1;
    std::uint64_t takings = 0;
    engine::Stats stats;
    engine::ClassKeySet classes;
    std::uint64_t counted_classes = 0;
    BugsFigures bugs;
  };
  Image image() const;
  /// The book image() gave (no lease asked to split: the asks die with the coordinator).
  explicit SubtreeLedger(Image image);

 private:
  /// Takes `counted` back out of the exploration's figures.
  void take_back(const Counted& counted);
  /// Voids every lease given away from `lease`'s, transitively (release()).
  void void_descendants(Entry& entry, Released& released);
  /// Folds `lease`, if finished with no gifts left, into its giver, and so on up the givers.
  void fold(std::uint64_t lease);
  void release_one(std::uint64_t lease, Released& released);
  void make_splittable(std::uint64_t lease, const Entry& entry);
  /// Adds `lease`'s root to `roots_`, or takes it out.
  void index_root(std::uint64_t lease, bool add);
  /// Marks `entry` finished, and out of the counts and of what may be split.
  void end(std::uint64_t lease, Entry& entry);

  std::map<std::uint64_t, Entry> leases_;
  std::deque<std::uint64_t> waiting_;
  std::uint64_t next_id_ = 1;
  std::uint64_t takings_ = 0;
  std::size_t unfinished_ = 0;  ///< leases not finished (void ones are)
  std::size_t out_ = 0;         ///< leases taken and not finished
  /// Leases that may be asked to split (taken, unfinished, not asked), by depth then id.
  std::set<std::pair<std::size_t, std::uint64_t>> splittable_;
  /// Unfinished leases by the hash of their root's prefix (owner_of).
  std::unordered_multimap<std::uint64_t, std::uint64_t> roots_;
  engine::Stats stats_;
  engine::ClassKeySet classes_;
  std::uint64_t counted_classes_ = 0;  ///< of explorers that count their classes (count())
  BugsFigures bugs_;
};

}  // namespace exocheck::coordinator
