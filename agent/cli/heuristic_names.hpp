#pragma once
// The one table between heuristic names (command line, trace files) and the protocol's enum.

#include <optional>
#include <string>
#include <vector>

#include "proto/control.pb.h"

namespace exocheck::cli {

/// Names a user may pass to --heuristic, in the order the help lists them.
std::vector<std::string> selectable_heuristic_names();

/// The protocol value for a heuristic name; nothing for an unknown name. Names of history-based
/// heuristics ("hms", "sgr") map to RANKED: the trace carries their ranking.
std::optional<proto::Heuristic> heuristic_from_name(const std::string& name);

}  // namespace exocheck::cli
