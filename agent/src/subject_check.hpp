#pragma once
// Whether this agent can run a job's subject: the binary exists here, is executable, and is the
// very build the client submitted (same SHA-256); a different build would make every replay diverge.

#include <optional>
#include <string>

#include "proto/coordinator.pb.h"

namespace exocheck::agent {

/// Why this agent refuses `offer` (one line naming the path and the digests), or nothing when it
/// can run it.
std::optional<std::string> refusal_reason(const proto::JobOffer& offer);

}  // namespace exocheck::agent
