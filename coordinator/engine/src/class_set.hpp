#pragma once
// The distinct classes of the paths an explorer saw. Each is held as its class key (class_key.hpp,
// 16 bytes), made from its canonical form as it comes: a path's own key for TraceView::class_key()
// is a few hundred bytes for a run of a few dozen steps, and holding those made an explorer's
// memory grow by that much per class, that is per path under optimal DPOR (minesweeper: 1.8 KB a
// path, 240 MB in 30 s). Keys are alike in every explorer, so agents report them as they are.

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "exocheck/engine/class_key.hpp"
#include "flat_class_keys.hpp"
#include "names.hpp"
#include "trace_view.hpp"

namespace exocheck::engine {

class ClassSet {
 public:
  /// The class of `trace`, its names interned into `names`. True when it is new.
  bool insert(const TraceView& trace, const Names& names) {
    trace.class_key(key_);
    TraceView::canonical_form_of(key_, names, form_);
    return keys_.insert(class_key_of(form_));
  }
  std::size_t size() const { return keys_.size(); }

  /// The keys as text, sorted: two explorers reached the same classes when these are equal.
  std::set<std::string> texts() const {
    std::set<std::string> texts;
    for (const auto& key : class_keys()) {
      char text[33];
      std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(key.high),
                    static_cast<unsigned long long>(key.low));
      texts.insert(text);
    }
    return texts;
  }

  /// Class keys, sorted: what an explorer of a subtree reports.
  std::vector<ClassKey> class_keys() const {
    std::vector<ClassKey> keys = keys_.keys();
    std::sort(keys.begin(), keys.end());
    return keys;
  }

 private:
  FlatClassKeys keys_;
  // Kept from path to path: counting a path allocates nothing once they have grown.
  std::string key_;
  std::string form_;
};

}  // namespace exocheck::engine
