#pragma once
// The tree of a reduction (exhaustive, dpor, transdpor: the *_policy.cpp files), the items out for
// execution and the figures: tree_exploration.cpp hands out items and takes results,
// tree_subtrees.cpp gives subtrees away, takes backtrack requests and estimates the share explored.

#include <deque>
#include <memory>
#include <unordered_map>
#include <utility>

#include "backtrack_policy.hpp"
#include "class_set.hpp"
#include "exploration.hpp"
#include "history.hpp"
#include "node.hpp"
#include "open_list.hpp"
#include "race.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

/// The tree, the items out for execution, and the figures. Depth-first for one worker, exactly in
/// the order of Fig. 2's recursion; see open_to_hand_out() for several.
class TreeExploration final : public Exploration {
 public:
  explicit TreeExploration(ExplorerOptions options) : options_(options), policy_(make_policy(options.reduction)) {
    trace_.set_timers(options.timers);
  }
  TreeExploration(ExplorerOptions options, const Subtree& subtree);

  std::optional<WorkItem> next() override;
  bool complete(std::uint64_t id, const Execution& execution) override;
  void abandon(std::uint64_t id) override;
  std::optional<Subtree> split() override;
  void subtree_finished(std::uint64_t id) override;
  bool request_backtrack(const BacktrackRequest& request) override;
  std::vector<BacktrackRequest> take_backtrack_requests() override { return std::exchange(requests_, {}); }
  std::size_t backtrack_requests_held() const override { return requests_.size(); }
  bool finished() const override;
  bool complete_exploration() const;
  bool explored_completely() const override { return outstanding_.empty() && complete_exploration(); }
  std::size_t outstanding() const override { return outstanding_.size(); }
  std::size_t frontier() const override;
  double explored_share() const override;
  std::size_t configurations() const override { return configurations_; }
  const Stats& stats() const override { return stats_; }
  const ExplorerOptions& options() const override { return options_; }
  std::set<std::string> classes() const override { return classes_.texts(); }
  std::vector<ClassKey> class_keys() const override { return classes_.class_keys(); }
  bool new_class() const override { return new_class_; }

 private:
  /// An item out for execution: from `node`, deliver `message` (kNoKey: the very first run).
  struct Issued {
    Node* node;
    Key message;
    SleepSet child_sleep;
    std::vector<std::string> ranking;
  };

  Node* open_to_hand_out();
  bool limit_reached() const {
    return options_.max_paths != 0 && stats_.paths + stats_.sleep_blocked + outstanding_.size() >= options_.max_paths;
  }
  WorkItem issue(Node& node, Key message);
  SleepSet sleep_after(const Node& node, Key message) const;
  /// The monitors' lanes delivering `message` from `node` notified on where it ran; when its run is
  /// not back or its subtree was dropped, every lane if any run notified (Names::notifications_seen).
  MonitorLanes notifies_from(const Node& node, Key message) const;
  WorkItem work_item(std::uint64_t id, const Issued& issued) const;
  bool follows_schedule(const TraceView& trace, const Issued& issued) const;
  void extend_tree(TraceView& trace, const Issued& issued, std::vector<Node*>& path);
  void analyse_races(const TraceView& trace, const std::vector<Node*>& path, std::size_t first_new_step);
  void analyse(const TraceView& trace, const std::vector<Node*>& path, Key m, std::size_t point);
  /// Offers races_ to the policy at their configurations (or to the giver, above the root).
  void take_races(const TraceView& trace, const std::vector<Node*>& path);
  /// `message`'s delivery from `node` ended a run in a failure that cut it off.
  static void mark_cut_off(Node& node, Key message);
  /// Marks the last step's delivery so when the run was cut off (race.hpp, find_cut_off_race).
  void mark_if_cut_off(const TraceView& trace, const std::vector<Node*>& path);
  void list_if_open(Node& node);
  void drop_explored(Node* node);
  void count_ending(const Execution& execution, const TraceView& trace);
  bool stored_prefix(const Execution& execution, const Issued& issued, std::vector<const ViewStep*>& prefix) const;
  void request_above_root(const TraceView& trace, const Race& race);
  /// The alternatives of step k, whose configuration lies above this explorer's root, to its owner.
  void request_alternatives_above_root(const TraceView& trace, std::size_t k);
  std::string name_or_empty(Key key) const { return key == kNoKey ? std::string() : names_.name(key); }
  using InFlight = std::vector<std::pair<const Node*, Key>>;
  double share_of(const Node& node, const InFlight& in_flight) const;

  ExplorerOptions options_;
  std::unique_ptr<BacktrackPolicy> policy_;
  Names names_;
  Node root_;
  // A subtree's root is not the initial configuration: the messages that reach it, and (once
  // its first run, which comes whole, brought them) the steps up to it, for runs that leave out
  // their prefix. The configurations above it belong to other explorers.
  std::vector<Key> root_prefix_;
  std::vector<ViewStep> above_root_;
  std::size_t configurations_ = 1;  // the root
  bool started_ = false;
  std::uint64_t next_id_ = 1;
  std::unordered_map<std::uint64_t, Issued> outstanding_;
  std::deque<std::uint64_t> reissue_;
  // Subtrees given away, by id: the configuration each was split off (kept until it is finished)
  // and the message its subtree starts with.
  std::unordered_map<std::uint64_t, std::pair<Node*, Key>> given_away_;
  std::vector<BacktrackRequest> requests_;
  OpenList open_;
  Stats stats_;
  ClassSet classes_;
  bool new_class_ = false;  ///< the last path complete() accepted was a class not seen before
  History history_;
  // complete()'s working memory, kept from one result to the next so that a result does not
  // allocate it again (complete() runs under the session's lock, once per execution).
  TraceView trace_;
  std::vector<const ViewStep*> prefix_;
  std::vector<Node*> path_;
  std::vector<Race> races_;
};

}  // namespace exocheck::engine
