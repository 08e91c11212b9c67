#pragma once
// Does a replay reproduce a recorded run? Compares the two traces event by event, field by field,
// and then the result status; reports the first difference as one line for people.

#include <optional>
#include <string>

#include "proto/trace.pb.h"

namespace exocheck::agent {

/// The first difference between the events, result status and final state of `recorded` and
/// `replayed`, e.g.
/// "step 4: recorded message 0.2#1 at actor 0.1, replay delivered 0.3#1", or nothing when the
/// replay reproduced the recording. Self-descriptions (subject, options, prefix) are not compared.
std::optional<std::string> first_difference(const proto::TraceFile& recorded, const proto::TraceFile& replayed);

}  // namespace exocheck::agent
