#pragma once
// One figure measured in several rounds, alternating with the others, and put back together.
// This machine's speed drifts by up to 2x within minutes: measured one after the other, a 1-core
// and a 2-core figure may come from different machines in effect, and their ratio says little.
// Measured in turns, each in the same minutes as the other, their ratio holds.

#include <vector>

#include <nlohmann/json.hpp>

namespace exocheck::bench {

/// The measurement the rounds (exploration figures of measure_exploration(), for one setup) make
/// together: executions, explorations, wall time and run counts summed; rates from the sums; the
/// per-execution figures weighted by each round's executions; peak memory the largest; complete
/// when every round was; the rest (cores, mode, classes, bugs) from the first. The first error
/// among the rounds, if any, instead.
nlohmann::json combine_rounds(const std::vector<nlohmann::json>& rounds);

/// Round by round, the summed rate of the measurements in `faster` (one per round, or several at
/// once: side by side) over the rate of the measurement in `base`: ratios within the same minutes,
/// so their spread shows how much of a combined ratio is the machine drifting. 0 for a round
/// where either failed or `base` measured nothing.
std::vector<double> ratios_per_round(const std::vector<std::vector<nlohmann::json>>& faster,
                                     const std::vector<nlohmann::json>& base);

}  // namespace exocheck::bench
