#include "wakeup_tree.hpp"

#include <algorithm>
#include <stdexcept>

#include "dependency.hpp"

namespace exocheck::engine {

std::optional<std::size_t> initial_position(const WakeupSequence& w, const WakeupEvent& p) {
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (w[k].same_delivery(p)) {
      for (std::size_t j = 0; j < k; ++j) {
        if (dependency::dependent(w[j].receiver, p.receiver) || dependency::sent_by(w[k].sender, w[j].message)) {
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
  return std::none_of(w.begin(), w.end(),
                      [&](const WakeupEvent& e) { return dependency::dependent(e.receiver, p.receiver); });
}

std::pair<WakeupEvent, WakeupTree> WakeupTree::take_first() {
  Branch first = std::move(branches_.front());
  branches_.erase(branches_.begin());
  return {first.event, std::move(*first.subtree)};
}

std::optional<WakeupTree> WakeupTree::take(Key message) {
  const auto it =
      std::find_if(branches_.begin(), branches_.end(), [&](const Branch& b) { return b.event.message == message; });
  if (it == branches_.end()) return std::nullopt;
  WakeupTree subtree = std::move(*it->subtree);
  branches_.erase(it);
  return subtree;
}

WakeupSequence WakeupTree::leftmost() const {
  WakeupSequence events;
  for (const WakeupTree* tree = this; !tree->empty(); tree = tree->branches_.front().subtree.get()) {
    events.push_back(tree->branches_.front().event);
  }
  return events;
}

void WakeupTree::insert(WakeupSequence v) {
  WakeupTree* node = this;
  for (bool root = true;; root = false) {
    if (!root && node->empty()) return;  // a leaf: exploring it covers v
    if (v.empty()) return;               // v leads here: the subtree explores it
    WakeupTree* next = nullptr;
    for (auto& branch : node->branches_) {
      if (const auto k = initial_position(v, branch.event)) {
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(*k));
        next = branch.subtree.get();
        break;
      }
      if (!branch.event.tentative && weak_initial(v, branch.event)) {
        next = branch.subtree.get();
        break;
      }
    }
    if (next == nullptr) break;
    node = next;
  }
  for (const WakeupEvent& event : v) {
    node->branches_.push_back({event, std::make_unique<WakeupTree>()});
    node = node->branches_.back().subtree.get();
  }
}

std::vector<std::pair<std::size_t, WakeupEvent>> WakeupTree::preorder() const {
  std::vector<std::pair<std::size_t, WakeupEvent>> nodes;
  const auto walk = [&](const WakeupTree& tree, std::size_t depth, const auto& self) -> void {
    for (const Branch& branch : tree.branches_) {
      nodes.emplace_back(depth, branch.event);
      self(*branch.subtree, depth + 1, self);
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
    parent.branches_.push_back({event, std::make_unique<WakeupTree>()});
    at.push_back(parent.branches_.back().subtree.get());
  }
  return tree;
}

}  // namespace exocheck::engine
