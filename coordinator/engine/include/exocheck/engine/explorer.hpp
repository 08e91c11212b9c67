#pragma once
// The exploration engine: consumes executions, produces the schedule prefixes to run next.
// A library with no I/O (no gRPC, processes or files), so it runs against in-memory fakes.
//
// Algorithms: TransDPOR paper (Tasharofi et al., FORTE 2012), Fig. 2, with and without its
// underlined lines, optionally with sleep sets; and exhaustive exploration as the yardstick.
// Work items may be handed out several at a time and completed in any order (parallel agents).

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exocheck/engine/execution.hpp"
#include "exocheck/engine/options.hpp"
#include "exocheck/engine/stats.hpp"

namespace exocheck::engine {

/// One schedule to run: follow `prefix`, then never choose a message in `sleep` while it sleeps.
struct WorkItem {
  std::uint64_t id = 0;
  std::vector<std::string> prefix;   ///< message ids: the path to a configuration plus the message to try there
  std::vector<std::string> sleep;    ///< messages asleep after the prefix (sleep sets)
  std::vector<std::string> ranking;  ///< HMS and SGR: actor ids by priority, learnt from earlier runs
};

class Explorer {
 public:
  explicit Explorer(ExplorerOptions options);
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

  /// True when nothing is outstanding and nothing is left to explore, or the path limit is reached.
  bool finished() const;
  /// True when every choice was explored: the exploration was not cut short by a limit.
  bool explored_completely() const;
  /// Items handed out and not yet completed.
  std::size_t outstanding() const;
  /// Choices known but not yet handed out.
  std::size_t frontier() const;
  /// Configurations the tree holds now, the root included. Explored subtrees are dropped, so the
  /// tree holds about the configurations of the paths still being explored, not of all paths.
  std::size_t configurations() const;
  const Stats& stats() const;
  const ExplorerOptions& options() const;

  /// Canonical forms of the classes of the explored paths, sorted (for differential testing).
  std::set<std::string> classes() const;

 private:
  class State;
  std::unique_ptr<State> state_;
};

/// The canonical form of an execution's Mazurkiewicz class. Two executions of a deterministic
/// actor program are equivalent iff every actor receives the same messages in the same order
/// (same-actor steps are dependent; sends and creations follow from the actor's own history),
/// so the per-actor delivery sequences, sorted by actor, are a canonical form.
std::string canonical_form(const Execution& execution);

}  // namespace exocheck::engine
