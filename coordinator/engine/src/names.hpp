#pragma once
// Interns the string ids of actors and messages, so the engine compares integers. Ids are
// stable across executions (DESIGN.md), so one table serves the whole exploration.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace exocheck::engine {

using Key = std::uint32_t;
inline constexpr Key kNoKey = ~Key{0};

class Names {
 public:
  Key intern(const std::string& name) {
    auto [it, inserted] = keys_.try_emplace(name, static_cast<Key>(names_.size()));
    if (inserted) names_.push_back(name);
    return it->second;
  }
  const std::string& name(Key key) const { return names_[key]; }
  /// Keys run from 0 to size() - 1: tables indexed by key can be plain vectors.
  std::size_t size() const { return names_.size(); }

 private:
  std::unordered_map<std::string, Key> keys_;
  std::vector<std::string> names_;
};

}  // namespace exocheck::engine
