#pragma once
// The configurations optimal DPOR holds (optimal_exploration.cpp): a tree from the exploration's
// root, each configuration with its sleep set, its wakeup tree and the choices taken from it. This
// file keeps the tree's bookkeeping: which configurations have branches left (the open list),
// which are pinned or unsettled, and which go once explored. What to insert where, and what a run
// means, is the algorithm's, in optimal_exploration.cpp.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "names.hpp"
#include "sleep_set.hpp"
#include "trace_view.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine {

/// A choice taken from a configuration.
struct Taken {
  Key message = kNoKey;
  Key receiver = kNoKey;
  /// Tentative, and its run not back yet: it may turn out held back, so it covers nothing yet.
  bool unsure = false;
  /// Explored: nothing out below it and no branch left there (or, given away, it came back).
  bool finished = false;
  bool given_away = false;
  /// Its delivery ended a run in a failure that cut it off (race.hpp, find_cut_off_race): it
  /// sleeps below no sibling, whose continuation it did not see.
  bool cut_off = false;
  /// Paths whose class is counted if its run turns out cut off at it (class_representative.hpp).
  std::uint32_t classes_waiting = 0;
  /// The monitors' lanes its delivery notified on where it ran, or every lane when it may
  /// (dependency.hpp).
  MonitorLanes notifies = MonitorLanes::none();
  /// Its number among the choices taken at its configuration (Configuration::take): a message
  /// may be taken twice there (by an item issued before another's run came back), and its
  /// configuration knows which taking reached it.
  std::uint32_t serial = 0;
};

/// One configuration held: on the way to an item out or a subtree given away, with a branch of
/// its wakeup tree left, or pinned.
struct Configuration {
  Configuration* parent = nullptr;
  std::size_t depth = 0;
  Key via = kNoKey;              ///< the message delivered to reach it
  std::uint32_t via_serial = 0;  ///< the parent's Taken::serial of that choice
  SleepSet sleep;                ///< asleep when it was reached
  std::vector<Taken> done;       ///< choices taken from here, in order
  std::vector<Pending> held;     ///< wakeup entries a guard held back here
  WakeupTree wakeup;             ///< choices still to explore, with what to do after them
  std::vector<std::pair<Key, std::unique_ptr<Configuration>>> children;  ///< those held
  std::size_t out = 0;        ///< items out that start here, subtrees given away from here
  std::uint64_t serial = 0;   ///< its place in the open list among those of its depth
  std::uint32_t choices = 0;  ///< choices taken here so far, the numbers of take()
  /// The count of the wakeup trees' events (wakeup_budget.hpp) that found its tree among the
  /// largest while they held their budget.
  std::uint64_t wakeup_full = 0;
  /// The step that reached it, once a run has come back through it: a later run from here or
  /// below leaves out the steps of the path here (WorkItem::steps_held).
  std::optional<ViewStep> step;

  /// The first configuration held that delivering `message` here reaches.
  Configuration* child(Key message) const;
  /// The configuration held that the choice numbered `serial` (Taken::serial) reaches.
  Configuration* child_of(std::uint32_t serial) const;
  /// The first choice taken here that delivers `message`.
  Taken* taken(Key message);
  /// The choice numbered `serial`.
  Taken* taken_of(std::uint32_t serial);
  /// Records `choice` as taken here, numbered (Taken::serial).
  Taken& take(Taken choice);
  /// A choice taken before this one's, here or above, is still being explored: its races may
  /// send sequences down here, so it stays held.
  bool pinned() const;
  /// No choice on the way here is a tentative entry whose run is not back: a guard may yet hold
  /// it back, and this configuration then goes. Nothing starts from here before.
  bool settled() const;
};

/// Configuration::pinned() and settled() asked of many configurations at once (split() looks at
/// every open one): each walks its path to the root, so asking each anew is quadratic in a long
/// run's length (a 100,000-step run's split took minutes). Here each link of a path is looked at
/// once, the answers of its ancestors remembered. Valid while the tree does not change.
class PathFacts {
 public:
  bool pinned(const Configuration& c);
  bool settled(const Configuration& c);
  /// A choice on the way to `c` is a label taken again where it had been taken already (by an
  /// item issued before another's run came back): what lies below explores a class again.
  bool below_a_second_taking(const Configuration& c);

 private:
  using Memo = std::unordered_map<const Configuration*, bool>;
  /// Whether `link` (c -> its parent) holds for c or any configuration above it.
  template <typename Link>
  static bool any_above(const Configuration& c, Memo& memo, Link link);

  Memo pinned_;
  Memo unsettled_;
  Memo second_;
};

class ConfigurationTree {
 public:
  /// `depth`: the root's, the length of the prefix that reaches it.
  explicit ConfigurationTree(std::size_t depth);
  ConfigurationTree(const ConfigurationTree&) = delete;  // the open list points into it
  ConfigurationTree& operator=(const ConfigurationTree&) = delete;

  Configuration& root() { return root_; }
  const Configuration& root() const { return root_; }
  /// Configurations held, the root included.
  std::size_t size() const { return size_; }

  /// Keeps the open list true to `c`'s wakeup tree.
  void relist(Configuration& c);
  /// The deepest configuration with a branch left that is settled (the smallest subtrees first,
  /// and sequences that reach a configuration after its choices were taken go down into them).
  Configuration* deepest_open();
  /// The configuration with a branch left that comes first depth-first, when every choice taken
  /// before its branches, there and above, is explored: the one item that pins nothing. Nothing
  /// when that work is out, given away or unsettled.
  Configuration* leftmost_open();
  /// The shallowest first: the configurations with a branch left.
  const std::map<std::pair<std::size_t, std::uint64_t>, Configuration*>& open() const { return open_; }
  /// The branches left in every wakeup tree held.
  std::size_t open_branches() const;

  /// The configuration `choice`, taken at `parent` (Configuration::take), reaches.
  Configuration& add_child(Configuration& parent, const Taken& choice, SleepSet sleep, WakeupTree wakeup);
  /// The choice numbered `serial` at `c` was not taken after all (a guard held its entry back, or
  /// a failure ended the run before it): it goes, with its configuration and all below, and the
  /// configurations of the choices after it, which it may have pinned alone, go once explored.
  void withdraw(Configuration& c, std::uint32_t serial);

  /// The choice numbered `serial` at `c` is explored: the configurations of the choices taken after
  /// it may have been pinned by it alone, and what of them is explored goes.
  void finish(Configuration& c, std::uint32_t serial);
  /// Drops `c`, then its ancestors, while nothing is left to do there or below and nothing can
  /// come down to them.
  void drop_explored(Configuration* c);

  /// Each choice known at a configuration (taken or waiting) taken to lead to a subtree of equal
  /// size; a taken one whose configuration is gone was explored, unless it was given away and is out.
  double explored_share() const { return share_of(root_); }

 private:
  bool droppable(const Configuration& c) const;
  /// Drops, bottom up, what is explored below `c` and no longer pinned.
  void sweep(Configuration& c);
  /// sweep() below the choices `later` of `c`, dropping the configurations they reach when explored.
  void sweep_later(Configuration& c, const std::vector<std::uint32_t>& later);
  void unlist(Configuration& c);
  static std::size_t count(const Configuration& c);
  static double share_of(const Configuration& c);

  Configuration root_;
  std::size_t size_ = 1;
  std::map<std::pair<std::size_t, std::uint64_t>, Configuration*> open_;  ///< by depth: wakeup left
  std::uint64_t serials_ = 0;
};

}  // namespace exocheck::engine
