#pragma once
// What an Explorer does, behind Explorer's interface: the tree of a reduction
// (tree_exploration.cpp), optimal DPOR (optimal_exploration.cpp), seeded sampled runs
// (sampled_runs.cpp) or a portfolio of them (portfolio_exploration.cpp). Explorer's comments say what each member
// means.

#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "exocheck/engine/explorer.hpp"

namespace exocheck::engine {

class Exploration {
 public:
  virtual ~Exploration() = default;
  virtual std::optional<WorkItem> next() = 0;
  virtual bool complete(std::uint64_t id, const Execution& execution) = 0;
  virtual void abandon(std::uint64_t id) = 0;
  virtual std::optional<Subtree> split() = 0;
  virtual void subtree_finished(std::uint64_t id) = 0;
  virtual bool request_backtrack(const BacktrackRequest& request) = 0;
  virtual std::vector<BacktrackRequest> take_backtrack_requests() = 0;
  virtual std::size_t backtrack_requests_held() const = 0;
  virtual bool finished() const = 0;
  virtual bool explored_completely() const = 0;
  virtual std::size_t outstanding() const = 0;
  virtual std::size_t frontier() const = 0;
  virtual double explored_share() const = 0;
  virtual std::size_t configurations() const = 0;
  virtual const Stats& stats() const = 0;
  virtual const ExplorerOptions& options() const = 0;
  virtual std::set<std::string> classes() const = 0;
  virtual std::vector<ClassKey> class_keys() const = 0;
  virtual bool new_class() const = 0;

  /// Explorer::interrupt(), from any thread, while another may be inside complete().
  virtual void interrupt() { interrupted_.store(true, std::memory_order_relaxed); }
  /// Read in the loops of a result's analysis: a relaxed load costs what a plain one does, so
  /// an analysis that may run for minutes looks at it often.
  bool interrupted() const { return interrupted_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> interrupted_{false};
};

/// How many iterations of an analysis's inner loop go between two looks at interrupted().
inline constexpr std::size_t kInterruptCheckEvery = 1024;

/// Counts a path (not a sleep-blocked run) that ended with `ending`: its bug, or its cut at the step limit.
inline void count_path(Stats& stats, const Execution& execution, const ExplorerOptions& options) {
  ++stats.paths;
  if (is_bug(execution.ending, options.checks.termination)) ++stats.bugs;
  if (execution.ending == Ending::kStepLimit) ++stats.step_limited;
  if (execution.faulted) ++stats.faulted;
}

/// The reduction's tree; `subtree` null: the whole tree.
std::unique_ptr<Exploration> make_tree_exploration(const ExplorerOptions& options, const Subtree* subtree);
/// Optimal DPOR; `subtree` null: the whole tree.
std::unique_ptr<Exploration> make_optimal_exploration(const ExplorerOptions& options, const Subtree* subtree);
/// Sampled runs; `subtree` null: runs 0 .. options.max_paths - 1 (no end when it is 0). Without
/// `count_classes`, Stats::classes stays 0 and no class key is held.
std::unique_ptr<Exploration> make_sampled_runs(const ExplorerOptions& options, const Subtree* subtree,
                                               bool count_classes = true);
/// The systematic exploration and randomized members side by side (portfolio_exploration.cpp).
std::unique_ptr<Exploration> make_portfolio(const ExplorerOptions& options, const Subtree* subtree);

}  // namespace exocheck::engine
