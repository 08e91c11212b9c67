#pragma once
// An agent's metrics in Prometheus text format: its runs by how they ended (crashes and hangs
// among them), fork servers started, slots, and whether its stream to the coordinator is up.

#include <cstdint>
#include <string>

#include "local_agent.hpp"

namespace exocheck::agent {

std::string agent_metrics(const RunTally& tally, std::uint32_t slots, bool connected);

}  // namespace exocheck::agent
