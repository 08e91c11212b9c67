#pragma once
// The class keys an explorer counted, in one open-addressed table (linear probing, at most half
// full). Every path of an exploration is counted here: counting a path was a twentieth of a
// registry exploration's CPU, half of it a node-based set's allocation and cache misses
// (tests/bench/results-2026-11-30.md).

#include <cstddef>
#include <vector>

#include "exocheck/engine/class_key.hpp"

namespace exocheck::engine {

class FlatClassKeys {
 public:
  /// True when `key` was not held yet.
  bool insert(const ClassKey& key) {
    // The all-zero key marks an empty slot: held apart, should a class ever hash to it.
    if (key == ClassKey{}) {
      const bool added = !holds_zero_;
      holds_zero_ = true;
      size_ += added ? 1 : 0;
      return added;
    }
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = static_cast<std::size_t>(key.low) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == ClassKey{}) {
        slots_[i] = key;
        ++size_;
        return true;
      }
    }
  }

  std::size_t size() const { return size_; }

  /// The keys, in no order.
  std::vector<ClassKey> keys() const {
    std::vector<ClassKey> keys;
    keys.reserve(size_);
    if (holds_zero_) keys.push_back(ClassKey{});
    for (const auto& slot : slots_) {
      if (slot != ClassKey{}) keys.push_back(slot);
    }
    return keys;
  }

 private:
  void grow() {
    std::vector<ClassKey> previous(slots_.empty() ? kFirstSlots : slots_.size() * 2);
    previous.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const auto& key : previous) {
      if (key == ClassKey{}) continue;
      std::size_t i = static_cast<std::size_t>(key.low) & mask;
      while (slots_[i] != ClassKey{}) i = (i + 1) & mask;
      slots_[i] = key;
    }
  }

  static constexpr std::size_t kFirstSlots = 64;
  std::vector<ClassKey> slots_;
  std::size_t size_ = 0;
  bool holds_zero_ = false;
};

}  // namespace exocheck::engine
