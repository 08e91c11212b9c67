#pragma once
// The exploration engine: consumes executions, produces the schedule prefixes to run next.
// A library with no I/O (no gRPC, processes or files), so it runs against in-memory fakes.
//
// Algorithms: TransDPOR paper (Tasharofi et al., FORTE 2012), Fig. 2, with and without its
// underlined lines, optionally with sleep sets; and exhaustive exploration as the yardstick.
// Optimal DPOR (source sets and wakeup trees). Or, with a sampled strategy
// (ExplorerOptions::strategy), seeded random runs and no tree.
// Work items may be handed out several at a time and completed in any order (parallel agents).

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exocheck/engine/class_key.hpp"
#include "exocheck/engine/execution.hpp"
#include "exocheck/engine/options.hpp"
#include "exocheck/engine/stats.hpp"
#include "exocheck/engine/subtree.hpp"

namespace exocheck::engine {

/// One schedule to run: follow `prefix`, then never choose a message in `sleep` while it sleeps.
struct WorkItem {
  std::uint64_t id = 0;
  std::vector<std::string> prefix;  ///< message ids: the path to a configuration plus the message to try there
  std::vector<std::string> sleep;   ///< messages asleep after the prefix (sleep sets)
  /// Of `sleep`, those whose delivery notified a specification monitor where it ran, or may have:
  /// a step that notifies wakes them (RunRequest.sleep_notifying).
  std::vector<std::string> sleep_notifying;
  /// Per message of sleep_notifying, the monitors' lanes it notified on; empty: any
  /// (RunRequest.sleep_notifying_lanes).
  std::vector<std::vector<std::string>> sleep_notifying_lanes;
  std::vector<std::string> ranking;  ///< HMS and SGR: actor ids by priority, learnt from earlier runs
  /// The run must come back whole, not without its prefix's steps: a subtree's first run (its
  /// explorer holds no step above its root yet).
  bool whole = false;
  /// With `whole`: the explorer holds steps 0 .. steps_held - 1 of the run already (optimal DPOR,
  /// the path to the configuration the item starts from), which the run may leave out.
  std::size_t steps_held = 0;
  /// Sampled strategies: the run's own schedule, drawn by the hook from its seed. PCT also needs
  /// the depth and an estimate of a run's steps (0: no change points).
  struct Sample {
    Strategy strategy = Strategy::kRandomWalk;
    std::uint64_t run = 0;  ///< the run's number: 0, 1, ...
    std::uint64_t seed = 0;
    std::uint32_t pct_depth = 0;
    std::uint32_t pct_steps = 0;
  };
  std::optional<Sample> sample;
  /// Optimal DPOR: the prefix's last entries come from a wakeup tree, and the last of those may
  /// be held back by a guard; the hook then ends the run sleep-blocked instead of diverging.
  std::size_t wakeup_entries = 0;
};

class Exploration;

class Explorer {
 public:
  /// Explores the whole tree, from the initial configuration.
  explicit Explorer(ExplorerOptions options);
  /// Explores `subtree`, split off another explorer: its first item runs the subtree's prefix,
  /// and races whose backtrack point lies above the subtree become backtrack requests
  /// (take_backtrack_requests) for the explorer that owns that configuration.
  Explorer(ExplorerOptions options, const Subtree& subtree);
  ~Explorer();
  Explorer(const Explorer&) = delete;
  Explorer& operator=(const Explorer&) = delete;

  /// The next schedule to run, or nothing when every open choice is already out (or all is done).
  std::optional<WorkItem> next();
  /// Reports the execution that ran item `id`. Returns false (and ignores it) when the item is
  /// unknown or was already completed: a result is accepted once.
  bool complete(std::uint64_t id, const Execution& execution);
  /// The item's run was lost: its schedule goes back to be handed out again.
  void abandon(std::uint64_t id);

  /// Gives away the shallowest open choice (whose subtree holds the most work) as a subtree for
  /// another explorer, or nothing when there is none. This explorer keeps the configuration the
  /// choice is made at, and is not finished, until subtree_finished(id).
  std::optional<Subtree> split();
  /// The subtree `id` given away by split() is explored, and every backtrack request it made was
  /// delivered (request_backtrack) before this call.
  void subtree_finished(std::uint64_t id);
  /// A race found by another explorer whose backtrack point is a configuration of this one.
  /// False (and nothing changes) when this explorer does not hold that configuration.
  bool request_backtrack(const BacktrackRequest& request);
  /// The backtrack requests made since the last call, for the owners of the configurations they
  /// name (always empty for an explorer of the whole tree).
  std::vector<BacktrackRequest> take_backtrack_requests();
  /// How many take_backtrack_requests() would give now.
  std::size_t backtrack_requests_held() const;

  /// Stops the exploration from any thread, also while another thread is inside complete(): a
  /// result's analysis in progress gives up at its next look (a run cut at the step limit can have
  /// races enough to take minutes), and from then on next() and split() hand out nothing. A time
  /// limit or Ctrl-C must hold whatever the program does. Results still coming are accepted.
  void interrupt();
  /// True when nothing is outstanding (items and subtrees given away) and nothing is left to
  /// explore, or the path limit is reached; once interrupted, when no item is out.
  bool finished() const;
  /// True when every choice was explored: the exploration was not cut short by a limit, nor
  /// interrupted.
  bool explored_completely() const;
  /// Items handed out and not yet completed.
  std::size_t outstanding() const;
  /// Choices known but not yet handed out.
  std::size_t frontier() const;
  /// An estimate, from 0 to 1, of the share of the tree explored: each configuration's choices
  /// known so far are taken to lead to subtrees of equal size. 1 once explored completely; races
  /// that add choices can lower it. Walks the tree held (configurations()).
  double explored_share() const;
  /// Configurations the tree holds now, the root included. Explored subtrees are dropped, so the
  /// tree holds about the configurations of the paths still being explored, not of all paths.
  std::size_t configurations() const;
  const Stats& stats() const;
  const ExplorerOptions& options() const;

  /// The classes of the explored paths as text (their keys in hex), sorted: equal sets, the same
  /// classes. Empty where classes are counted, not held (counts_classes()).
  std::set<std::string> classes() const;
  /// The keys of the classes of the explored paths, sorted: what an explorer of a subtree reports,
  /// so that classes are counted exactly across explorers. Made per path, 16 bytes held per class;
  /// empty where classes are counted, not held (counts_classes()).
  std::vector<ClassKey> class_keys() const;
  /// Whether the path complete() last accepted was counted as a class of its own: the first of
  /// its class this explorer saw, or, where classes are counted, the one its class is counted by.
  bool new_class() const;

 private:
  std::unique_ptr<Exploration> state_;
};

/// Whether explorations with `options` count their classes without holding them (optimal DPOR:
/// engine/src/class_representative.hpp): each class is counted by exactly one explorer, so the
/// figures of several add up (Stats::classes), and no explorer has class keys to report.
bool counts_classes(const ExplorerOptions& options);

/// The canonical form of an execution's Mazurkiewicz class. Two executions of a deterministic
/// actor program are equivalent iff every actor receives the same messages in the same order
/// (same-actor steps are dependent; sends and creations follow from the actor's own history),
/// so the per-actor delivery sequences, sorted by actor, are a canonical form.
std::string canonical_form(const Execution& execution, Timers timers = Timers::kAnytime);

}  // namespace exocheck::engine
