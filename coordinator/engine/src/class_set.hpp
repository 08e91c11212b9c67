#pragma once
// The distinct classes of the paths an explorer saw, by TraceView::class_key(): one insertion per
// path, hashed, with canonical forms and class keys (class_key.hpp) made only when asked.

#include <algorithm>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "exocheck/engine/class_key.hpp"
#include "names.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

class ClassSet {
 public:
  void insert(std::string key) { keys_.insert(std::move(key)); }
  std::size_t size() const { return keys_.size(); }

  /// Canonical forms, sorted (`names`: the names the keys were interned into).
  std::set<std::string> forms(const Names& names) const {
    std::set<std::string> forms;
    for (const auto& key : keys_) forms.insert(TraceView::canonical_form_of(key, names));
    return forms;
  }

  /// Class keys, sorted: what an explorer of a subtree reports.
  std::vector<ClassKey> class_keys(const Names& names) const {
    std::vector<ClassKey> keys;
    keys.reserve(keys_.size());
    for (const auto& key : keys_) keys.push_back(class_key_of(TraceView::canonical_form_of(key, names)));
    std::sort(keys.begin(), keys.end());
    return keys;
  }

 private:
  std::unordered_set<std::string> keys_;
};

}  // namespace exocheck::engine
