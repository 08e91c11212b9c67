#pragma once
// Which specification monitors' lanes a delivery is on (dependency.md, "Specification monitors"):
// a bit per lane, numbered as an exploration's Names first meets the lanes, or every lane when that
// is not known (a delivery not run yet, or one known only by the wire's flag "notifies").

#include <cstdint>

namespace exocheck::engine {

struct MonitorLanes {
  /// On no monitor's lane: it notified nothing.
  static constexpr MonitorLanes none() { return {}; }
  /// On every monitor's lane: it may notify any.
  static constexpr MonitorLanes any() { return MonitorLanes{~std::uint32_t{0}}; }
  /// From a flag that says only whether it notifies (the wire's, the hook's sleep set's).
  static constexpr MonitorLanes from_flag(bool notifies) { return notifies ? any() : none(); }
  /// The bit lanes from this number on share (they then take each other for dependent, never one
  /// of those before). 32 bits: a sleep set's entry stays as small as a flag left it.
  static constexpr std::uint32_t kShared = 31;
  /// On the lane numbered `lane` (past kShared, the shared bit).
  static constexpr MonitorLanes lane(std::uint32_t lane) {
    return MonitorLanes{std::uint32_t{1} << (lane < kShared ? lane : kShared)};
  }

  /// Whether it is on the lane numbered `lane` (past kShared: the shared bit).
  constexpr bool on(std::uint32_t lane) const { return (bits >> (lane < kShared ? lane : kShared) & 1) != 0; }
  /// It notified (or may notify) some monitor.
  constexpr explicit operator bool() const { return bits != 0; }
  /// The two share a lane: two such deliveries do not commute.
  constexpr bool meets(MonitorLanes other) const { return (bits & other.bits) != 0; }
  constexpr MonitorLanes operator|(MonitorLanes other) const { return MonitorLanes{bits | other.bits}; }
  /// Its lanes that `other` is not on.
  constexpr MonitorLanes without(MonitorLanes other) const { return MonitorLanes{bits & ~other.bits}; }
  constexpr bool operator==(const MonitorLanes&) const = default;

  /// Bit n: on the lane numbered n (MonitorLanes::lane). Made by the functions above.
  std::uint32_t bits = 0;
};

}  // namespace exocheck::engine
