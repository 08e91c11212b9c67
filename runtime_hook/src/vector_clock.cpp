#include "vector_clock.hpp"

#include <algorithm>

namespace exocheck::detail {

void VectorClock::merge(const VectorClock& other) {
  if (other.entries_.empty()) return;
  const auto by_actor = [](const Entry& x, const Entry& y) { return x.first < y.first; };
  // Most merges bring no actor this clock lacks: those are made in place, without a new vector
  // (a merge is made at every step).
  if (std::includes(entries_.begin(), entries_.end(), other.entries_.begin(), other.entries_.end(), by_actor)) {
    auto mine = entries_.begin();
    for (const Entry& entry : other.entries_) {
      mine = std::lower_bound(mine, entries_.end(), entry, by_actor);  // there: includes() says so
      mine->second = std::max(mine->second, entry.second);
    }
    return;
  }
  std::vector<Entry> merged;
  merged.reserve(entries_.size() + other.entries_.size());
  auto a = entries_.begin();
  auto b = other.entries_.begin();
  while (a != entries_.end() || b != other.entries_.end()) {
    if (b == other.entries_.end() || (a != entries_.end() && a->first < b->first)) {
      merged.push_back(*a++);
    } else if (a == entries_.end() || b->first < a->first) {
      merged.push_back(*b++);
    } else {
      merged.emplace_back(a->first, std::max(a->second, b->second));
      ++a;
      ++b;
    }
  }
  entries_ = std::move(merged);
}

namespace {

template <typename Entries>
auto slot_of(Entries& entries, std::uint32_t index) {
  return std::lower_bound(entries.begin(), entries.end(), VectorClock::Entry{index, 0},
                          [](const VectorClock::Entry& x, const VectorClock::Entry& y) { return x.first < y.first; });
}

}  // namespace

void VectorClock::tick(std::uint32_t index) {
  auto it = slot_of(entries_, index);
  if (it != entries_.end() && it->first == index) {
    ++it->second;
  } else {
    entries_.insert(it, Entry{index, 1});
  }
}

void VectorClock::raise(std::uint32_t index, std::uint32_t count) {
  auto it = slot_of(entries_, index);
  if (it != entries_.end() && it->first == index) {
    it->second = std::max(it->second, count);
  } else {
    entries_.insert(it, Entry{index, count});
  }
}

std::uint32_t VectorClock::at(std::uint32_t index) const {
  auto it = slot_of(entries_, index);
  return it != entries_.end() && it->first == index ? it->second : 0;
}

bool VectorClock::precedes_or_equals(const VectorClock& other) const {
  return std::all_of(entries_.begin(), entries_.end(),
                     [&](const Entry& entry) { return entry.second <= other.at(entry.first); });
}

}  // namespace exocheck::detail
