#include "configuration_tree.hpp"

#include <algorithm>

namespace exocheck::engine {

Configuration* Configuration::child(Key message) const {
  for (const auto& [via, configuration] : children) {
    if (via == message) return configuration.get();
  }
  return nullptr;
}

Configuration* Configuration::child_of(std::uint32_t serial) const {
  for (const auto& [via, configuration] : children) {
    if (configuration->via_serial == serial) return configuration.get();
  }
  return nullptr;
}

Taken* Configuration::taken_of(std::uint32_t serial) {
  const auto it = std::find_if(done.begin(), done.end(), [&](const Taken& t) { return t.serial == serial; });
  return it == done.end() ? nullptr : &*it;
}

Taken& Configuration::take(Taken choice) {
  choice.serial = ++choices;
  done.push_back(choice);
  return done.back();
}

Taken* Configuration::taken(Key message) {
  const auto it = std::find_if(done.begin(), done.end(), [&](const Taken& t) { return t.message == message; });
  return it == done.end() ? nullptr : &*it;
}

bool Configuration::pinned() const {
  for (const Configuration* c = this; c->parent != nullptr; c = c->parent) {
    for (const Taken& t : c->parent->done) {
      if (t.serial == c->via_serial) break;
      if (!t.finished) return true;
    }
  }
  return false;
}

bool Configuration::settled() const {
  for (const Configuration* n = this; n->parent != nullptr; n = n->parent) {
    for (const Taken& t : n->parent->done) {
      if (t.serial == n->via_serial && t.unsure) return false;
    }
  }
  return true;
}

template <typename Link>
bool PathFacts::any_above(const Configuration& c, Memo& memo, Link link) {
  std::vector<const Configuration*> chain;
  bool found = false;
  for (const Configuration* at = &c; at->parent != nullptr; at = at->parent) {
    if (const auto known = memo.find(at); known != memo.end()) {
      found = known->second;
      break;
    }
    chain.push_back(at);
  }
  // From the top down: a configuration's answer is its link's or its parent's.
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    found = found || link(**it);
    memo.emplace(*it, found);
  }
  return found;
}

bool PathFacts::pinned(const Configuration& c) {
  return any_above(c, pinned_, [](const Configuration& at) {
    for (const Taken& t : at.parent->done) {
      if (t.serial == at.via_serial) break;
      if (!t.finished) return true;
    }
    return false;
  });
}

bool PathFacts::settled(const Configuration& c) {
  return !any_above(c, unsettled_, [](const Configuration& at) {
    for (const Taken& t : at.parent->done) {
      if (t.serial == at.via_serial && t.unsure) return true;
    }
    return false;
  });
}

bool PathFacts::below_a_second_taking(const Configuration& c) {
  return any_above(c, second_, [](const Configuration& at) {
    for (const Taken& t : at.parent->done) {
      if (t.serial == at.via_serial) return false;
      if (t.message == at.via) return true;
    }
    return false;
  });
}

ConfigurationTree::ConfigurationTree(std::size_t depth) {
  root_.depth = depth;
}

void ConfigurationTree::relist(Configuration& c) {
  if (c.wakeup.empty()) {
    if (c.serial != 0) open_.erase(std::pair{c.depth, c.serial});
    c.serial = 0;
  } else if (c.serial == 0) {
    c.serial = ++serials_;
    open_.emplace(std::pair{c.depth, c.serial}, &c);
  }
}

Configuration* ConfigurationTree::deepest_open() {
  const auto open = std::find_if(open_.rbegin(), open_.rend(), [](const auto& o) { return o.second->settled(); });
  return open == open_.rend() ? nullptr : open->second;
}

// Down the first choice not yet explored at each configuration: what is left of it comes first.
// A configuration reached so with nothing left there or below was explored (a run a failure ended
// inside its item's entries leaves those below it): it goes, and the walk starts again.
Configuration* ConfigurationTree::leftmost_open() {
  Configuration* at = &root_;
  for (;;) {
    const auto unexplored = std::find_if(at->done.begin(), at->done.end(), [](const Taken& t) { return !t.finished; });
    if (unexplored != at->done.end()) {
      at = at->child_of(unexplored->serial);
      if (at == nullptr) return nullptr;  // given away
      continue;
    }
    if (!at->wakeup.empty()) return at->settled() ? at : nullptr;
    if (!droppable(*at)) return nullptr;
    drop_explored(at);
    at = &root_;
  }
}

std::size_t ConfigurationTree::open_branches() const {
  std::size_t branches = 0;
  for (const auto& [place, configuration] : open_) branches += configuration->wakeup.branches();
  return branches;
}

Configuration& ConfigurationTree::add_child(Configuration& parent, const Taken& choice, SleepSet sleep,
                                            WakeupTree wakeup) {
  const Key via = choice.message;
  auto child = std::make_unique<Configuration>();
  child->parent = &parent;
  child->depth = parent.depth + 1;
  child->via = via;
  child->via_serial = choice.serial;
  child->sleep = std::move(sleep);
  child->wakeup = std::move(wakeup);
  relist(*child);
  Configuration& made = *child;
  parent.children.emplace_back(via, std::move(child));
  ++size_;
  return made;
}

void ConfigurationTree::withdraw(Configuration& c, std::uint32_t serial) {
  const Taken* t = c.taken_of(serial);
  if (t == nullptr) return;
  std::vector<std::uint32_t> later;
  for (auto it = c.done.begin() + (t - c.done.data()) + 1; it != c.done.end(); ++it) later.push_back(it->serial);
  c.done.erase(c.done.begin() + (t - c.done.data()));
  auto& children = c.children;
  const auto it = std::find_if(children.begin(), children.end(),
                               [&](const auto& child) { return child.second->via_serial == serial; });
  if (it != children.end()) {
    size_ -= count(*it->second);
    unlist(*it->second);
    children.erase(it);
  }
  sweep_later(c, later);
}

std::size_t ConfigurationTree::count(const Configuration& c) {
  std::size_t n = 1;
  for (const auto& [via, child] : c.children) n += count(*child);
  return n;
}

void ConfigurationTree::unlist(Configuration& c) {
  c.wakeup = WakeupTree();
  relist(c);
  for (auto& [via, child] : c.children) unlist(*child);
}

void ConfigurationTree::finish(Configuration& c, std::uint32_t serial) {
  Taken* t = c.taken_of(serial);
  if (t == nullptr || t->finished) return;
  t->finished = true;
  std::vector<std::uint32_t> later;
  for (auto it = c.done.begin() + (t - c.done.data()) + 1; it != c.done.end(); ++it) later.push_back(it->serial);
  sweep_later(c, later);
}

void ConfigurationTree::sweep_later(Configuration& c, const std::vector<std::uint32_t>& later) {
  for (const std::uint32_t choice : later) {
    for (std::size_t k = 0; k < c.children.size(); ++k) {
      if (c.children[k].second->via_serial != choice) continue;
      sweep(*c.children[k].second);
      if (droppable(*c.children[k].second)) {
        c.children.erase(c.children.begin() + static_cast<std::ptrdiff_t>(k));
        --size_;
        finish(c, choice);
      }
      break;
    }
  }
}

bool ConfigurationTree::droppable(const Configuration& c) const {
  return c.parent != nullptr && c.out == 0 && c.children.empty() && c.wakeup.empty() && !c.pinned();
}

void ConfigurationTree::sweep(Configuration& c) {
  for (std::size_t k = 0; k < c.children.size();) {
    Configuration& child = *c.children[k].second;
    sweep(child);
    if (!droppable(child)) {
      ++k;
      continue;
    }
    const std::uint32_t via = child.via_serial;
    c.children.erase(c.children.begin() + static_cast<std::ptrdiff_t>(k));
    --size_;
    finish(c, via);
    k = 0;  // finishing may have dropped others
  }
}

// pinned() walks `c`'s path to the root, and an ancestor's path is part of it: once `c` is not
// pinned, no ancestor is (finish() only finishes choices). Asking each ancestor again made
// dropping a run's path quadratic in its length: a run of 100,000 steps took a minute.
void ConfigurationTree::drop_explored(Configuration* c) {
  bool unpinned = false;
  const auto droppable_here = [&](const Configuration& at) {
    if (at.parent == nullptr || at.out != 0 || !at.children.empty() || !at.wakeup.empty()) return false;
    return unpinned || (unpinned = !at.pinned());
  };
  while (droppable_here(*c)) {
    Configuration* parent = c->parent;
    const std::uint32_t via = c->via_serial;
    auto& siblings = parent->children;
    siblings.erase(std::find_if(siblings.begin(), siblings.end(), [&](const auto& s) { return s.second.get() == c; }));
    --size_;
    finish(*parent, via);
    c = parent;
  }
}

double ConfigurationTree::share_of(const Configuration& c) {
  const std::size_t choices = c.done.size() + c.wakeup.branches();
  if (choices == 0) return c.out == 0 ? 1.0 : 0.0;
  double explored = 0.0;
  for (const Taken& t : c.done) {
    if (const Configuration* child = c.child_of(t.serial)) {
      explored += share_of(*child);
    } else if (!t.given_away || t.finished) {
      explored += 1.0;
    }
  }
  return explored / static_cast<double>(choices);
}

}  // namespace exocheck::engine
