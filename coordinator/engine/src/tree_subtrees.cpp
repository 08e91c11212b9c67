#include <algorithm>

#include "tree_exploration.hpp"

namespace exocheck::engine {

void TreeExploration::request_above_root(const TraceView& trace, const Race& race) {
  BacktrackRequest request;
  request.prefix.reserve(race.step - 1);
  for (std::size_t k = 1; k < race.step; ++k) request.prefix.push_back(names_.name(trace.step(k).label));
  request.message = names_.name(race.message);
  request.taken = names_.name(race.taken);
  for (Key m : race.dpor_set) request.dpor_set.push_back(names_.name(m));
  request.minimal = name_or_empty(race.minimal);
  request.cut_off = race.cut_off;
  requests_.push_back(std::move(request));
}

void TreeExploration::request_alternatives_above_root(const TraceView& trace, std::size_t k) {
  const auto alternatives = trace.alternatives(k);
  if (alternatives.empty()) return;
  BacktrackRequest request;
  for (std::size_t j = 1; j < k; ++j) request.prefix.push_back(names_.name(trace.step(j).label));
  request.taken = names_.name(trace.step(k).label);
  for (Key alternative : alternatives) request.alternatives.push_back(names_.name(alternative));
  requests_.push_back(std::move(request));
}

bool TreeExploration::request_backtrack(const BacktrackRequest& request) {
  if (request.prefix.size() < root_prefix_.size()) return false;
  for (std::size_t k = 0; k < root_prefix_.size(); ++k) {
    if (request.prefix[k] != names_.name(root_prefix_[k])) return false;
  }
  Node* node = &root_;
  for (std::size_t k = root_prefix_.size(); k < request.prefix.size(); ++k) {
    const Key via = names_.intern(request.prefix[k]);
    const auto child = std::find_if(node->children.begin(), node->children.end(),
                                    [&](const auto& entry) { return entry.first == via; });
    if (child == node->children.end() || !child->second) return false;
    node = child->second.get();
  }
  if (!request.alternatives.empty()) {
    for (const auto& label : request.alternatives) {
      const Key alternative = names_.intern(label);
      if (!node->sleep.asleep(names_.base(alternative))) node->add_backtrack(alternative, names_.base(alternative));
    }
    list_if_open(*node);
    return true;
  }
  if (request.cut_off) mark_cut_off(*node, names_.base(names_.intern(request.taken)));
  Race race;
  race.step = request.prefix.size() + 1;
  race.message = names_.intern(request.message);
  race.taken = names_.intern(request.taken);
  for (const auto& m : request.dpor_set) {
    race.dpor_set.push_back(names_.intern(m));
    race.dpor_messages.push_back(names_.base(race.dpor_set.back()));
  }
  race.minimal = request.minimal.empty() ? kNoKey : names_.intern(request.minimal);
  race.minimal_message = race.minimal == kNoKey ? kNoKey : names_.base(race.minimal);
  policy_->on_race(*node, race);
  list_if_open(*node);
  return true;
}

std::optional<Subtree> TreeExploration::split() {
  if (!started_ || limit_reached()) return std::nullopt;
  Node* node = open_.shallowest([this](Node* unlisted) { drop_explored(unlisted); });
  if (node == nullptr) return std::nullopt;
  for (Key m : node->backtrack) {
    if (node->is_done(m) || node->asleep(m)) continue;
    Subtree subtree;
    subtree.id = next_id_++;
    for (const Pending& p : sleep_after(*node, m)) {
      subtree.sleep.emplace_back(names_.name(p.message), names_.name(p.receiver));
      if (p.notifies) subtree.sleep_notifying.push_back(names_.name(p.message));
    }
    // As issue() does: the choice is out, and its configuration stays until it comes back.
    node->done.push_back(m);
    node->latest = m;
    node->freeze = false;
    ++node->items_out;
    given_away_.emplace(subtree.id, std::pair{node, m});
    subtree.prefix = work_item(0, Issued{node, m, {}, {}}).prefix;
    return subtree;
  }
  return std::nullopt;
}

void TreeExploration::subtree_finished(std::uint64_t id) {
  const auto it = given_away_.find(id);
  if (it == given_away_.end()) return;
  Node* node = it->second.first;
  given_away_.erase(it);
  --node->items_out;
  drop_explored(node);
}

std::size_t TreeExploration::frontier() const {
  std::size_t choices = 0;
  open_.for_each([&](const Node& node) {
    for (Key m : node.backtrack) {
      if (!node.is_done(m) && !node.asleep(m)) ++choices;
    }
  });
  return choices;
}

// The share of a configuration's subtree explored, estimated as if every choice known there led
// to a subtree of equal size: the mean of its choices' shares, where a choice handed out whose
// child is gone was explored (drop_explored), one out without a child yet is not, and one not
// handed out yet is not. Choices that races add later lower the estimate again; with exhaustive
// exploration every choice is known when its configuration is first reached, and the estimate
// only grows.
double TreeExploration::share_of(const Node& node, const InFlight& in_flight) const {
  std::size_t choices = node.done.size();
  for (Key m : node.backtrack) choices += !node.is_done(m) && !node.asleep(m) ? 1 : 0;
  if (choices == 0) return node.items_out == 0 ? 1.0 : 0.0;
  double explored = 0.0;
  for (Key m : node.done) {
    const auto child = std::find_if(node.children.begin(), node.children.end(),
                                    [&](const auto& entry) { return entry.first == m && entry.second; });
    if (child != node.children.end()) {
      explored += share_of(*child->second, in_flight);
    } else if (std::find(in_flight.begin(), in_flight.end(), std::pair{&node, m}) == in_flight.end()) {
      explored += 1.0;
    }
  }
  return explored / static_cast<double>(choices);
}

double TreeExploration::explored_share() const {
  if (!started_) return 0.0;
  if (complete_exploration() && outstanding_.empty()) return 1.0;
  InFlight in_flight;
  for (const auto& [id, issued] : outstanding_) in_flight.emplace_back(issued.node, issued.message);
  for (const auto& [id, given] : given_away_) in_flight.emplace_back(given.first, given.second);
  return share_of(root_, in_flight);
}

}  // namespace exocheck::engine

namespace exocheck::engine {

bool notifying(const Subtree& subtree, const std::string& message) {
  return std::find(subtree.sleep_notifying.begin(), subtree.sleep_notifying.end(), message) !=
         subtree.sleep_notifying.end();
}

}  // namespace exocheck::engine
