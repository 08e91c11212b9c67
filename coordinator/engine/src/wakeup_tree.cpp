#include "wakeup_tree.hpp"

#include <algorithm>
#include <stdexcept>

#include "dependency.hpp"

namespace exocheck::engine {

std::optional<std::size_t> initial_position(const WakeupSequence& w, const WakeupEvent& p) {
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (w[k].same_delivery(p)) {
      for (std::size_t j = 0; j < k; ++j) {
        if (dependency::dependent(w[j].receiver, p.receiver, w[j].notifies, p.notifies) ||
            dependency::sent_by(w[k].sender, w[j].message)) {
          return std::nullopt;
        }
      }
      return k;
    }
  }
  return std::nullopt;
}

bool weak_initial(const WakeupSequence& w, const WakeupEvent& p) {
  if (initial_position(w, p)) return true;
  return std::none_of(w.begin(), w.end(), [&](const WakeupEvent& e) {
    return dependency::dependent(e.receiver, p.receiver, e.notifies, p.notifies);
  });
}

WakeupTree& WakeupTree::below(Branch& branch) {
  split(branch, 0);
  return *branch.subtree;
}

void WakeupTree::split(Branch& branch, std::size_t k) {
  if (k < branch.chain.size()) {
    Branch tail{branch.chain[k],
                std::move(branch.subtree),
                {branch.chain.begin() + static_cast<std::ptrdiff_t>(k) + 1, branch.chain.end()}};
    branch.chain.resize(k);
    branch.chain.shrink_to_fit();
    branch.subtree = std::make_unique<WakeupTree>();
    branch.subtree->branches_.push_back(std::move(tail));
  }
  if (!branch.subtree) branch.subtree = std::make_unique<WakeupTree>();
}

WakeupTree WakeupTree::take_below(Branch& branch) {
  return std::move(below(branch));
}

std::pair<WakeupEvent, WakeupTree> WakeupTree::take_first() {
  Branch first = std::move(branches_.front());
  branches_.erase(branches_.begin());
  return {first.event, take_below(first)};
}

std::optional<WakeupTree> WakeupTree::take(Key message) {
  const auto it =
      std::find_if(branches_.begin(), branches_.end(), [&](const Branch& b) { return b.event.message == message; });
  if (it == branches_.end()) return std::nullopt;
  WakeupTree subtree = take_below(*it);
  branches_.erase(it);
  return subtree;
}

WakeupSequence WakeupTree::leftmost() const {
  WakeupSequence events;
  for (const WakeupTree* tree = this; tree != nullptr && !tree->empty();) {
    const Branch& first = tree->branches_.front();
    events.push_back(first.event);
    events.insert(events.end(), first.chain.begin(), first.chain.end());
    tree = first.subtree.get();
  }
  return events;
}

std::optional<std::size_t> other_label_position(const WakeupSequence& w, const WakeupEvent& delivered) {
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (w[k].other_label(delivered) && initial_position(w, w[k]) == k) return k;
  }
  return std::nullopt;
}

void WakeupTree::insert(WakeupSequence v) {
  descend(std::move(v), nullptr);
}

void WakeupTree::insert_below(WakeupEvent first, WakeupSequence rest) {
  for (Branch& branch : branches_) {
    if (branch.event.same_delivery(first)) return below(branch).descend(std::move(rest), &branch);
  }
  rest.insert(rest.begin(), first);
  grow(rest);
}

// A sequence cut short ends in a leaf that covers none that goes below it (Branch::bare): it is
// not the whole reversal of a race, whose exploration would find what a longer one reverses.
void WakeupTree::grow(const WakeupSequence& events) {
  if (events.empty()) return;
  if (std::none_of(events.begin(), events.end(), [](const WakeupEvent& e) { return e.rest; })) {
    branches_.push_back({events.front(), nullptr, {events.begin() + 1, events.end()}});
    return;
  }
  WakeupTree* node = this;
  Branch* last = nullptr;
  for (const WakeupEvent& event : events) {
    if (event.rest) {
      if (last != nullptr) last->bare = true;
      return;
    }
    node->branches_.push_back({event, std::make_unique<WakeupTree>(), {}});
    last = &node->branches_.back();
    node = last->subtree.get();
  }
}

void WakeupTree::descend(WakeupSequence v, Branch* through) {
  WakeupTree* node = this;
  bool not_bare = false;  // the flag of an event of a chain, which is never bare
  bool* through_bare = through == nullptr ? nullptr : &through->bare;
  for (;;) {
    // A leaf: exploring it covers v, unless v makes a choice a run does not make by itself, or the
    // leaf is an alternative's label alone or a sequence cut short (Branch::bare), or v notifies a
    // monitor: the leaf's own run may then meet the reversal only where a sleeping message that
    // shares a lane with one of v's later deliveries blocks it (dependency.md, "Specification
    // monitors"), so v goes on below the leaf.
    if (through_bare != nullptr && !*through_bare && node->empty() &&
        std::none_of(v.begin(), v.end(),
                     [](const WakeupEvent& e) { return e.chosen || static_cast<bool>(e.notifies); })) {
      return;
    }
    if (v.empty() || v.front().rest) {  // v leads here: the subtree explores it
      // A leaf here is v's too, when v ends here (a sequence cut short does not).
      if (through_bare != nullptr && node->empty() && v.empty()) *through_bare = false;
      return;
    }
    Branch* next = nullptr;
    for (auto& branch : node->branches_) {
      if (const auto k = initial_position(v, branch.event)) {
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(*k));
        next = &branch;
        break;
      }
      // Every label of a message goes from where the message is delivered: the branches after it
      // sleep the message (dependency.md, "Choices").
      if (const auto k = other_label_position(v, branch.event)) {
        const WakeupEvent first = v[*k];
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(*k));
        return node->insert_below(first, std::move(v));
      }
      if (!branch.event.tentative && weak_initial(v, branch.event)) {
        next = &branch;
        break;
      }
    }
    if (next == nullptr) break;
    // Along next's chain each node has one branch, its event: v goes on as above, through what it
    // delivers first or what is a weak initial of it, and where it stops, a node is made.
    std::size_t k = 0;
    for (; k < next->chain.size(); ++k) {
      if (v.empty() || v.front().rest) return;  // not a leaf: the subtree explores it
      const WakeupEvent& event = next->chain[k];
      if (const auto at = initial_position(v, event)) {
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(*at));
        continue;
      }
      if (other_label_position(v, event) || event.tentative || !weak_initial(v, event)) break;
    }
    split(*next, k);
    node = next->subtree.get();
    through_bare = k > 0 ? &not_bare : &next->bare;
  }
  node->grow(v);
}

bool WakeupTree::add_branch(WakeupEvent event) {
  const bool present = std::any_of(branches_.begin(), branches_.end(),
                                   [&](const Branch& branch) { return branch.event.same_delivery(event); });
  if (present) return false;
  branches_.push_back({event, nullptr, {}, true});
  return true;
}

std::size_t WakeupTree::events() const {
  std::size_t events = 0;
  for (const Branch& branch : branches_) {
    events += 1 + branch.chain.size();
    if (branch.subtree) events += branch.subtree->events();
  }
  return events;
}

std::vector<std::pair<std::size_t, WakeupEvent>> WakeupTree::preorder() const {
  std::vector<std::pair<std::size_t, WakeupEvent>> nodes;
  const auto walk = [&](const WakeupTree& tree, std::size_t depth, const auto& self) -> void {
    for (const Branch& branch : tree.branches_) {
      nodes.emplace_back(depth, branch.event);
      for (std::size_t k = 0; k < branch.chain.size(); ++k) nodes.emplace_back(depth + 1 + k, branch.chain[k]);
      if (branch.subtree) self(*branch.subtree, depth + 1 + branch.chain.size(), self);
    }
  };
  walk(*this, 1, walk);
  return nodes;
}

WakeupTree WakeupTree::from_preorder(const std::vector<std::pair<std::size_t, WakeupEvent>>& nodes) {
  WakeupTree tree;
  std::vector<WakeupTree*> at{&tree};  // at[d - 1]: where a node of depth d goes
  for (const auto& [depth, event] : nodes) {
    if (depth == 0 || depth > at.size()) throw std::invalid_argument("a wakeup tree's preorder skips a depth");
    at.resize(depth);
    WakeupTree& parent = *at.back();
    parent.branches_.push_back({event, std::make_unique<WakeupTree>(), {}});
    at.push_back(parent.branches_.back().subtree.get());
  }
  return tree;
}

WakeupEvent event_named(const WakeupStep& step, Names& names) {
  WakeupEvent event{.message = names.intern(step.message), .receiver = names.intern(step.receiver)};
  if (!step.sender.empty()) event.sender = names.intern(step.sender);
  event.tentative = step.tentative;
  event.chosen = step.chosen;
  event.rest = step.rest;
  event.notifies = MonitorLanes::from_flag(step.notifies);  // a subtree says only whether
  const Key message = names.base(event.message);
  event.label_of = message == event.message ? kNoKey : message;
  return event;
}

WakeupStep step_named(const WakeupEvent& event, const Names& names) {
  WakeupStep step;
  step.message = names.name(event.message);
  step.receiver = names.name(event.receiver);
  if (event.sender != kNoKey) step.sender = names.name(event.sender);
  step.tentative = event.tentative;
  step.chosen = event.chosen;
  step.rest = event.rest;
  step.notifies = static_cast<bool>(event.notifies);
  return step;
}

}  // namespace exocheck::engine
