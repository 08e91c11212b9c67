#pragma once
// Liveness within a bound (--liveness-bound N): how long each monitor has been hot, counted in
// fair rounds. A round begins with the messages enabled and ends at the first step by which each
// of them has been delivered or is not enabled any more. A schedule that starves a message (its
// receiver busy with its own periodic tick, or another actor served instead) never ends its round,
// so a monitor hot only because of that starvation never gets warmer; nor does one whose owed step
// is merely late within a round (steps would count the starving). Rounds were once per actor: a
// receiver's step ended its part of the round, whichever message it took, and a store whose node
// kept taking its tick while a repair message waited was reported (replicated-storage --fixed
// --forever, bound 10). A monitor hot throughout more than N rounds (since it last went hot) is a potential
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

  /// After step `step` (1, 2, ...), which delivered the message `delivered`; `enabled` names the
  /// messages enabled now. Returns the monitor hot past the bound, or nullptr.
  const Monitor* after_step(std::uint32_t step, const std::string& delivered,
                            std::span<const std::string* const> enabled, std::span<Monitor* const> monitors);

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
  std::vector<std::string> owed_;  ///< messages of the round not delivered yet
  std::vector<Heat> heats_;
};

}  // namespace exocheck::detail
