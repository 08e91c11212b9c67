#pragma once
// Optimal DPOR's wakeup trees within their budget of events (ExplorerOptions::held_wakeup_events).
// They hold the sequences still to explore, which on a large program grow with the paths explored:
// a shallow configuration takes a sequence for most paths explored below it. While the trees hold
// their budget, sequences for the largest trees are cut short as a long run's are (their first
// event, then the rest explored freely), so that those trees gain at most a branch per first event;
// the trees near the path being explored, which it soon takes back, keep whole sequences.
// Explorers may share one budget (ExplorerOptions::shared_wakeup_events): each adds what it
// counted to their sum, and cuts while the sum holds the budget.

#include <atomic>
#include <cstdint>

#include "configuration_tree.hpp"
#include "wakeup_tree.hpp"

namespace exocheck::engine {

class WakeupBudget {
 public:
  explicit WakeupBudget(std::uint64_t events, std::atomic<std::uint64_t>* shared = nullptr)
      : budget_(events), shared_(shared) {}
  ~WakeupBudget() {
    if (shared_) shared_->fetch_sub(published_, std::memory_order_relaxed);
  }
  WakeupBudget(const WakeupBudget&) = delete;
  WakeupBudget& operator=(const WakeupBudget&) = delete;

  /// Before a run's analysis: counts the trees' events when it is due (a walk of them all), and
  /// marks the largest while they hold their budget.
  void before_analysis(const ConfigurationTree& tree);
  /// Whether a sequence for the tree at `at` (nullptr: a configuration above the explorer's root,
  /// whose owner is another) is to be cut short.
  bool cuts_at(const Configuration* at) const {
    return cutting_ && (everywhere_ || at == nullptr || at->wakeup_full == count_);
  }
  /// `v` cut short when cuts_at() says so (its first event, an initial, and the rest); true if it was.
  bool cut(WakeupSequence& v, const Configuration* at) const;
  /// A sequence of `events` events offered to the trees.
  void offered(std::size_t events) { estimate_ += events; }

 private:
  /// Runs analysed between two counts: at most once this often while the events offered may have
  /// passed the budget (a count of a million events takes a few milliseconds), and this often
  /// while sequences are cut short, to see whether exploration took the trees back under nine tenths.
  static constexpr std::uint64_t kRunsBetweenCounts = 1024;
  static constexpr std::uint64_t kRunsBetweenCountsWhileCutting = 4096;
  /// A tree of at least this share of the budget is one of the largest.
  static constexpr std::uint64_t kLargeTreeShare = 64;

  std::uint64_t budget_;
  std::atomic<std::uint64_t>* shared_;
  std::uint64_t published_ = 0;  ///< this explorer's part of *shared_: its events when last counted
  /// The trees' events when last counted, and those offered since (an upper bound).
  std::uint64_t estimate_ = 0;
  std::uint64_t runs_since_count_ = kRunsBetweenCounts;
  std::uint64_t count_ = 0;  ///< counts made: Configuration::wakeup_full names the one that marked it
  bool cutting_ = false;     ///< the trees held their budget when last counted
  /// This explorer held half the events or more, of which its largest trees half or less: every
  /// sequence is cut.
  bool everywhere_ = false;
};

}  // namespace exocheck::engine
