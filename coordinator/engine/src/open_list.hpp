#pragma once
// The configurations that had an open choice when listed, by depth, so that both the deepest and
// the shallowest are found without a search through the tree. Cleaned lazily: a configuration
// whose choices are all out leaves when it comes to the end of its depth's list.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "node.hpp"

namespace exocheck::engine {

class OpenList {
 public:
  /// Lists `node` once, if it has an open choice.
  void add(Node& node) {
    if (node.listed || !node.has_open_choice()) return;
    node.listed = true;
    if (by_depth_.size() <= node.depth) by_depth_.resize(node.depth + 1);
    by_depth_[node.depth].push_back(&node);
    first_ = std::min<std::size_t>(first_, node.depth);
    ++size_;
  }
  /// Configurations listed, some of which may have no open choice left.
  std::size_t size() const { return size_; }

  /// The deepest listed configuration with an open choice (the latest listed of its depth), or
  /// nullptr. `unlisted(node)` is called for each configuration taken off the list on the way.
  template <typename Unlisted>
  Node* deepest(Unlisted unlisted) {
    while (!by_depth_.empty()) {
      if (Node* node = open_end(by_depth_.back(), unlisted)) return node;
      by_depth_.pop_back();
    }
    return nullptr;
  }

  /// The same, shallowest first.
  template <typename Unlisted>
  Node* shallowest(Unlisted unlisted) {
    for (; first_ < by_depth_.size(); ++first_) {
      if (Node* node = open_end(by_depth_[first_], unlisted)) return node;
    }
    return nullptr;
  }

  bool any_open() const {
    for (const auto& nodes : by_depth_) {
      for (const Node* node : nodes) {
        if (node->has_open_choice()) return true;
      }
    }
    return false;
  }

  template <typename Visit>
  void for_each(Visit visit) const {
    for (const auto& nodes : by_depth_) {
      for (const Node* node : nodes) visit(*node);
    }
  }

 private:
  // The last node of `nodes` with an open choice, after taking off those after it that have none.
  template <typename Unlisted>
  Node* open_end(std::vector<Node*>& nodes, Unlisted& unlisted) {
    while (!nodes.empty()) {
      Node* node = nodes.back();
      if (node->has_open_choice()) return node;
      nodes.pop_back();
      --size_;
      node->listed = false;
      unlisted(node);
    }
    return nullptr;
  }

  std::vector<std::vector<Node*>> by_depth_;
  std::size_t first_ = 0;  ///< no depth above this one lists anything
  std::size_t size_ = 0;
};

}  // namespace exocheck::engine
