#pragma once
// Liveness within a bound (--liveness-bound N): how long each monitor has been hot, counted in
// fair rounds. A round begins with the actors that have a message enabled and ends at the first
// step by which each of them has had a step or has nothing enabled any more. A schedule that
// starves an actor never ends its round, so a monitor hot only because of that starvation never
// gets warmer; nor does one whose owed step is merely late within a round (steps would count the
// starving). A monitor hot throughout more than N rounds (since it last went hot) is a potential
// liveness bug. DESIGN.md, "Specifications", says how this differs from Coyote's temperature.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "exocheck/monitor.hpp"

namespace exocheck::detail {

class LivenessWatch {
 public:
  /// `bound` 0: nothing is counted.
  explicit LivenessWatch(std::uint32_t bound) : bound_(bound) {}

  /// After step `step` (1, 2, ...) of `actor`; `enabled` names the actors with a message enabled
  /// now (repeats allowed). Returns the monitor hot past the bound, or nullptr.
  const Monitor* after_step(std::uint32_t step, const std::string& actor, std::span<const std::string* const> enabled,
                            std::span<Monitor* const> monitors);

  /// The completed rounds `monitor` has been hot throughout, since it last went hot.
  std::uint32_t temperature(const Monitor& monitor) const;

 private:
  struct Heat {
    const Monitor* monitor;
    std::uint32_t hot_since = 0;  ///< the step that made it hot; 0: cold
    std::uint32_t temperature = 0;
  };
  void begin_round(std::uint32_t first_step, std::span<const std::string* const> enabled);
  Heat& heat_of(const Monitor& monitor);

  std::uint32_t bound_;
  std::uint32_t round_start_ = 0;  ///< first step of the round in progress; 0: none yet
  std::vector<std::string> owed_;  ///< actors of the round that have not had a step yet
  std::vector<Heat> heats_;
};

}  // namespace exocheck::detail
