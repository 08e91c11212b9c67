#include "tree_exploration.hpp"

#include <algorithm>

namespace exocheck::engine {
namespace {

// See open_to_hand_out(): while the tree lists fewer open configurations than this per item out,
// work is scarce. At 0 it gives depth first throughout, and beyond any tree's size shallowest
// always; how long workers waited for a lease with each is in tests/bench/results-2026-11-25.md.
constexpr std::size_t kListedPerItemOutWhileScarce = 16;

}  // namespace

TreeExploration::TreeExploration(ExplorerOptions options, const Subtree& subtree) : TreeExploration(options) {
  root_prefix_.reserve(subtree.prefix.size());
  for (const auto& message : subtree.prefix) root_prefix_.push_back(names_.intern(message));
  root_.depth = static_cast<std::uint32_t>(root_prefix_.size());
  for (const auto& [message, receiver] : subtree.sleep) {
    root_.sleep.fall_asleep(
        {names_.intern(message), names_.intern(receiver), MonitorLanes::from_flag(notifying(subtree, message))});
  }
}

std::optional<WorkItem> TreeExploration::next() {
  if (!started_) {
    started_ = true;
    return issue(root_, kNoKey);
  }
  while (!reissue_.empty()) {
    const auto id = reissue_.front();
    reissue_.pop_front();
    auto it = outstanding_.find(id);
    if (it != outstanding_.end()) return work_item(id, it->second);
  }
  if (limit_reached()) return std::nullopt;
  Node* node = open_to_hand_out();
  if (node == nullptr) return std::nullopt;
  for (Key m : node->backtrack) {
    if (!node->is_done(m) && !node->asleep(m)) return issue(*node, m);
  }
  return std::nullopt;
}

// One worker goes depth first, in the order of Fig. 2's recursion: it asks only once its last
// item is completed. A worker that asks while other items are out takes the shallowest open
// configuration instead, as long as work is scarce (the tree lists few open configurations per
// item out): the deepest is most often a choice next to another worker's, whose subtree is
// explored in a run or two, after which both wait for the next result to bring work (and the
// items of TransDPOR's frozen configurations come one result at a time). The shallowest one's
// subtree brings work for a long while. Once work is plentiful, depth first again, which keeps
// the tree to about the paths being explored (Explorer.InParallelGoesDepthFirstOnceWorkIsPlentiful
// bounds it). Which configuration goes first changes no class reached (the differential tests run
// simulated agents in random orders). Figures: tests/bench/results-2026-11-25.md.
Node* TreeExploration::open_to_hand_out() {
  const auto dropped_once_unlisted = [this](Node* node) { drop_explored(node); };  // kept for the list only
  const bool scarce = open_.size() < kListedPerItemOutWhileScarce * (outstanding_.size() + 1);
  if (!outstanding_.empty() && scarce) return open_.shallowest(dropped_once_unlisted);
  return open_.deepest(dropped_once_unlisted);
}

SleepSet TreeExploration::sleep_after(const Node& node, Key message) const {
  if (!options_.sleep_sets) return {};
  if (message == kNoKey) return node.sleep;  // a subtree's first run: what sleeps at its root
  // Sleep sets hold messages, each asleep with every delivery of it (its handler's choices): those
  // handed out before the first delivery of this one's message sleep (dependency.md, "Choices").
  const Key delivered = names_.base(message);
  ShortList<Key, 4> before;
  for (Key done : node.done) {
    if (names_.base(done) == delivered) break;
    if (!Node::contains(node.cut_off, names_.base(done))) before.push_back(names_.base(done));
  }
  const auto receiver_of = [&](Key m) { return Pending{m, node.receiver_of(m), notifies_from(node, m)}; };
  // Taken not to notify a monitor: tree_exploration.cpp's extend_tree() mends it if it did.
  return node.sleep.after(delivered, node.receiver_of(delivered), MonitorLanes::none(), before, receiver_of);
}

MonitorLanes TreeExploration::notifies_from(const Node& node, Key message) const {
  for (const auto& [via, child] : node.children) {
    if (child && names_.base(via) == message) return child->step.notifies;
  }
  // Its run is not back, or its subtree was dropped.
  return MonitorLanes::from_flag(names_.notifications_seen());
}

// Made from what the item keeps (the tree above its node does not change), each time it is
// handed out: the same item when it is handed out again.
WorkItem TreeExploration::work_item(std::uint64_t id, const Issued& issued) const {
  WorkItem item;
  item.id = id;
  const Node& node = *issued.node;
  item.prefix.resize(node.depth + (issued.message != kNoKey ? 1 : 0));
  for (const Node* n = &node; n->parent != nullptr; n = n->parent) item.prefix[n->depth - 1] = names_.name(n->via);
  for (std::size_t k = 0; k < root_prefix_.size(); ++k) item.prefix[k] = names_.name(root_prefix_[k]);
  if (issued.message != kNoKey) item.prefix.back() = names_.name(issued.message);
  issued.child_sleep.name_into(names_, item.sleep, item.sleep_notifying, item.sleep_notifying_lanes);
  item.ranking = issued.ranking;
  item.whole = issued.message == kNoKey && !root_prefix_.empty();
  return item;
}

WorkItem TreeExploration::issue(Node& node, Key message) {
  Issued issued{&node, message, sleep_after(node, message), history_.ranking(options_.heuristic)};
  if (message != kNoKey) {
    node.done.push_back(message);
    node.latest = message;
    node.freeze = false;  // Fig. 2 line 14'
  }
  ++node.items_out;
  const std::uint64_t id = next_id_++;
  const auto stored = outstanding_.emplace(id, std::move(issued)).first;
  return work_item(id, stored->second);
}

void TreeExploration::abandon(std::uint64_t id) {
  if (outstanding_.count(id)) reissue_.push_back(id);
}

bool TreeExploration::follows_schedule(const TraceView& trace, const Issued& issued) const {
  const std::size_t depth = issued.node->depth;
  if (issued.message != kNoKey) {
    if (trace.size() < depth + 1 || trace.step(depth + 1).label != issued.message) return false;
  } else if (trace.size() < depth) {
    return false;
  }
  std::size_t k = depth;
  for (const Node* node = issued.node; node->parent != nullptr; node = node->parent, --k) {
    if (trace.step(k).label != node->via) return false;
  }
  for (; k >= 1; --k) {
    if (trace.step(k).label != root_prefix_[k - 1]) return false;
  }
  return true;
}

// `path` gets the nodes the execution went through, from the root on.
void TreeExploration::extend_tree(TraceView& trace, const Issued& issued, std::vector<Node*>& path) {
  path.clear();
  path.reserve(std::max<std::size_t>(issued.node->depth, trace.size()) + 1);  // one allocation, not one per doubling
  path.resize(issued.node->depth + 1);
  for (Node* node = issued.node; node != nullptr; node = node->parent) path[node->depth] = node;
  for (std::size_t k = issued.node->depth + 1; k <= trace.size(); ++k) {
    Node& parent = *path[k - 1];
    const ViewStep& step = trace.step(k);
    const bool fresh = k - 1 > issued.node->depth || issued.message == kNoKey;
    if (fresh) {
      parent.enabled = step.enabled;
      parent.receivers.clear();
      for (Key m : step.enabled) parent.receivers.push_back(trace.receiver(m));
      policy_->initialize(parent, step.label);
      parent.latest = step.label;
    }
    // The same delivery with a choice of its handler made otherwise: each another transition from
    // here, dependent with this one (dependency.md, "Choices"). The item's own step too: a race
    // may have put its message here without the choices its run then made.
    if (k - 1 >= issued.node->depth) {
      for (Key alternative : trace.alternatives(k)) {
        const Key message = names_.base(alternative);
        if (!parent.sleep.asleep(message)) parent.add_backtrack(alternative, message);
      }
    }
    auto& slot = parent.child(step.label);
    if (!slot) {
      slot = std::make_unique<Node>();
      ++configurations_;
      slot->parent = &parent;
      slot->via = step.label;
      slot->depth = static_cast<std::uint32_t>(k);
      if (k == issued.node->depth + 1 && issued.message != kNoKey) {
        // Handed out as if it notified no monitor: if it did, what notifies on its lanes woke (the
        // hook's too).
        slot->sleep =
            step.notified ? issued.child_sleep.passed_through(step.lane(), step.notifies) : issued.child_sleep;
      } else {
        slot->sleep = parent.sleep.passed_through(step.lane(), step.notifies);
      }
      trace.move_step_into(k, slot->step);  // `step` now reads from the node
    }
    path.push_back(slot.get());
  }
}

void TreeExploration::analyse(const TraceView& trace, const std::vector<Node*>& path, Key m, std::size_t point) {
  find_races(trace, options_.delivery, m, trace.receiver(m), point, races_);
  take_races(trace, path);
}

void TreeExploration::mark_cut_off(Node& node, Key message) {
  if (!Node::contains(node.cut_off, message)) node.cut_off.push_back(message);
}

void TreeExploration::take_races(const TraceView& trace, const std::vector<Node*>& path) {
  for (const Race& race : races_) {
    Node* pre = path[race.step - 1];
    if (pre == nullptr) {
      request_above_root(trace, race);
      continue;
    }
    policy_->on_race(*pre, race);
    list_if_open(*pre);
  }
}

void TreeExploration::analyse_races(const TraceView& trace, const std::vector<Node*>& path,
                                    std::size_t first_new_step) {
  // At each event, as in the paper's Fig. 1 walk-through: the message just delivered, then the
  // messages just sent or lost; and at the end, whatever is still pending.
  // Interrupted (Explorer::interrupt), it stops where it is: no more is handed out anyway.
  for (std::size_t k = first_new_step; k <= trace.size(); ++k) {
    if (interrupted()) return;  // each step's races take a walk of the trace: one look per step
    const ViewStep& step = trace.step(k);
    analyse(trace, path, step.message, k - 1);
    for (Key m : step.sent) analyse(trace, path, m, k);
    for (Key m : step.dead_letters) {
      if (!Node::contains(step.sent, m)) analyse(trace, path, m, k);
    }
  }
  for (Key m : trace.pending_at_end()) {
    if (interrupted()) return;
    analyse(trace, path, m, trace.size());
    find_cut_off_race(trace, m, races_);
    take_races(trace, path);
  }
}

void TreeExploration::mark_if_cut_off(const TraceView& trace, const std::vector<Node*>& path) {
  if (!trace.ended_in_failure() || trace.size() == 0 || path[trace.size() - 1] == nullptr) return;
  if (cut_off(trace, trace.pending_at_end(), races_)) {
    mark_cut_off(*path[trace.size() - 1], names_.base(trace.step(trace.size()).label));
  }
}

void TreeExploration::list_if_open(Node& node) {
  open_.add(node);
}

// Drops `node`, then its ancestors, while they are explored: no open choice, no item out, no child
// left, and off the list of open nodes (a listed node is dropped when it leaves the list). Nothing
// reaches a dropped configuration again: an execution goes through the ancestors of its item's
// node, then through configurations it reaches first; and a message delivered from a
// configuration stays in its done set, so that its child is never made again. Without this, the
// tree would hold every path explored, and free them all at the end, in one go.
void TreeExploration::drop_explored(Node* node) {
  while (node->parent != nullptr && node->items_out == 0 && node->children.empty() && !node->listed &&
         !node->has_open_choice()) {
    Node* parent = node->parent;
    auto& siblings = parent->children;
    siblings.erase(
        std::find_if(siblings.begin(), siblings.end(), [&](const auto& child) { return child.second.get() == node; }));
    --configurations_;
    node = parent;
  }
}

// `prefix` gets the tree's steps before the execution's first one; false when the tree does not
// hold them.
bool TreeExploration::stored_prefix(const Execution& execution, const Issued& issued,
                                    std::vector<const ViewStep*>& prefix) const {
  prefix.clear();
  if (execution.first_step == 0) return true;
  // The run starts with the step the item asked for: steps 0..depth are the path to its node.
  // Every node but the root got its step when it was created; the root gets its step from the
  // first run, which comes whole (step 0; for a subtree, its root's step and the steps above it).
  if (issued.message == kNoKey || execution.first_step != issued.node->depth + 1) return false;
  if (above_root_.size() != root_prefix_.size()) return false;
  prefix.resize(issued.node->depth + 1);
  for (const Node* node = issued.node; node != nullptr; node = node->parent) prefix[node->depth] = &node->step;
  for (std::size_t k = 0; k < above_root_.size(); ++k) prefix[k] = &above_root_[k];
  return true;
}

void TreeExploration::count_ending(const Execution& execution, const TraceView& trace) {
  if (execution.ending == Ending::kSleepBlocked) {
    ++stats_.sleep_blocked;
    return;
  }
  count_path(stats_, execution, options_);
  if (execution.ending != Ending::kDivergence) new_class_ = classes_.insert(trace, names_);
  stats_.classes = classes_.size();
}

bool TreeExploration::complete(std::uint64_t id, const Execution& execution) {
  auto it = outstanding_.find(id);
  if (it == outstanding_.end()) return false;
  const Issued issued = std::move(it->second);
  outstanding_.erase(it);
  new_class_ = false;

  if (options_.heuristic == Heuristic::kHms || options_.heuristic == Heuristic::kSgr) history_.record(execution);
  if (!stored_prefix(execution, issued, prefix_)) {
    // Only a broken agent leaves out what the tree does not hold: the schedule is run again.
    reissue_.push_back(id);
    outstanding_.emplace(id, issued);
    return false;
  }
  --issued.node->items_out;
  TraceView& trace = trace_;
  trace.assign(execution, names_, prefix_);
  if (issued.message == kNoKey && trace.size() >= root_.depth) {  // the first run
    root_.step = trace.step(root_.depth);
    // The giver took the root's delivery not to notify a monitor (sleep_after()): if it did, what
    // notifies on its lanes woke there, in the hook's set too.
    if (root_.depth > 0 && root_.step.notified) {
      root_.sleep = root_.sleep.passed_through(root_.step.lane(), root_.step.notifies);
    }
    for (std::size_t k = 0; k < root_.depth; ++k) above_root_.push_back(trace.step(k));
  }
  stats_.executed_steps += trace.size();
  if (execution.ending == Ending::kDivergence || !follows_schedule(trace, issued)) {
    ++stats_.paths;
    ++stats_.bugs;
    drop_explored(issued.node);
    return true;
  }
  // A subtree's first run takes the subtree's own choice at the configuration above its root,
  // which its giver handed out: its races are found here, from that step on.
  const bool subtree_start = issued.message == kNoKey && !root_prefix_.empty();
  const std::size_t first_new_step = issued.node->depth + (subtree_start ? 0 : 1);
  extend_tree(trace, issued, path_);
  const auto& path = path_;
  stats_.transitions += trace.size() - (first_new_step - 1);
  for (std::size_t k = first_new_step - 1; k < trace.size(); ++k) {
    if (path[k] != nullptr) list_if_open(*path[k]);
  }
  if (subtree_start) request_alternatives_above_root(trace, root_.depth);
  mark_if_cut_off(trace, path);  // exhaustive's sleep sets too
  if (policy_->analyses_races()) analyse_races(trace, path, first_new_step);
  count_ending(execution, trace);
  drop_explored(path.back());
  return true;
}

bool TreeExploration::finished() const {
  if (!started_ || !outstanding_.empty() || !given_away_.empty()) return false;
  return limit_reached() || complete_exploration();
}

bool TreeExploration::complete_exploration() const {
  return started_ && given_away_.empty() && !open_.any_open();
}

std::unique_ptr<Exploration> make_tree_exploration(const ExplorerOptions& options, const Subtree* subtree) {
  if (subtree == nullptr) return std::make_unique<TreeExploration>(options);
  return std::make_unique<TreeExploration>(options, *subtree);
}

}  // namespace exocheck::engine
