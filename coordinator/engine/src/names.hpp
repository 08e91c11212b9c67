#pragma once
// Interns the string ids of actors and messages, so the engine compares integers. Ids are
// stable across executions (DESIGN.md), so one table serves the whole exploration.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace exocheck::engine {

using Key = std::uint32_t;
inline constexpr Key kNoKey = ~Key{0};

/// Every id of every step of every result is looked up here, so the table is an open-addressing
/// one over short ids (FNV-1a, linear probing, at most half full) rather than a node-based map.
class Names {
 public:
  /// Key 0 is "*": the lane of a step that depends on every other (dependency.hpp, kEveryLane).
  Names() { intern("*"); }

  Key intern(std::string_view name) {
    if ((names_.size() + 1) * 2 > slots_.size()) grow();
    const std::uint64_t h = hash(name);
    for (std::size_t i = h & mask();; i = (i + 1) & mask()) {
      const Key key = slots_[i];
      if (key == kNoKey) {
        const auto added = static_cast<Key>(names_.size());
        names_.emplace_back(name);
        hashes_.push_back(h);
        slots_[i] = added;
        bases_.push_back(added);
        // A delivery's label ("0#3?1": its handler's choices) stands for its message's delivery.
        if (const auto mark = name.find('?'); mark != std::string_view::npos && mark > 0) {
          bases_[added] = intern(name.substr(0, mark));
        }
        return added;
      }
      if (hashes_[key] == h && names_[key] == name) return key;
    }
  }
  const std::string& name(Key key) const { return names_[key]; }
  /// Some execution interned here notified a specification monitor (TraceView): a delivery that
  /// has not run yet may notify one too. Until then, none is taken to (dependency.md).
  bool notifications_seen() const { return notifications_seen_; }
  void note_notifications() { notifications_seen_ = true; }
  /// The number of the monitors' lane `lane` (MonitorLanes::lane): in the order first asked, up to
  /// `shared`; the lanes after those share that number, and the lane named `shared_name`.
  std::uint32_t monitor_lane_number(Key lane, std::uint32_t shared, std::string_view shared_name) {
    for (std::uint32_t i = 0; i < monitor_lanes_.size(); ++i) {
      if (monitor_lanes_[i] == lane) return i;
    }
    if (monitor_lanes_.size() < shared) {
      monitor_lanes_.push_back(lane);
      return static_cast<std::uint32_t>(monitor_lanes_.size() - 1);
    }
    if (shared_monitor_lane_ == kNoKey) shared_monitor_lane_ = intern(shared_name);
    return shared;
  }
  /// The monitors' lanes numbered so far, by number (the shared number's lanes not among them).
  const std::vector<Key>& monitor_lanes() const { return monitor_lanes_; }
  /// The lane the shared number stands for, kNoKey while no lane has it.
  Key shared_monitor_lane() const { return shared_monitor_lane_; }
  std::vector<std::string> names_of(const std::vector<Key>& keys) const {
    std::vector<std::string> names;
    names.reserve(keys.size());
    for (Key k : keys) names.push_back(name(k));
    return names;
  }
  /// The message a delivery label names (the key itself for a message id or any other name).
  Key base(Key key) const { return bases_[key]; }
  /// The message `key` is a label of, kNoKey when it is a message itself (WakeupEvent::label_of).
  Key label_of(Key key) const { return base(key) == key ? kNoKey : base(key); }
  /// Keys run from 0 to size() - 1: tables indexed by key can be plain vectors.
  std::size_t size() const { return names_.size(); }

 private:
  bool notifications_seen_ = false;
  std::vector<Key> monitor_lanes_;  ///< monitor_lane_number()'s
  Key shared_monitor_lane_ = kNoKey;
  static std::uint64_t hash(std::string_view name) {
    std::uint64_t h = 14695981039346656037ULL;
    for (const char c : name) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
    return h;
  }
  std::size_t mask() const { return slots_.size() - 1; }
  void grow() {
    slots_.assign(slots_.empty() ? 64 : slots_.size() * 2, kNoKey);
    for (Key key = 0; key < names_.size(); ++key) {
      std::size_t i = hashes_[key] & mask();
      while (slots_[i] != kNoKey) i = (i + 1) & mask();
      slots_[i] = key;
    }
  }

  std::vector<Key> slots_;  ///< a power of two in size; kNoKey: empty
  std::vector<std::string> names_;
  std::vector<std::uint64_t> hashes_;
  std::vector<Key> bases_;
};

}  // namespace exocheck::engine
