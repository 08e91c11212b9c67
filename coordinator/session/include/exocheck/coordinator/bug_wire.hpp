#pragma once
// Distinct bugs (bug_groups.hpp) on the wire between agents and the coordinator: a lease's new or
// shortened bug as a FoundBug, its counts at its end as BugTally.

#include <cstdint>
#include <vector>

#include "exocheck/coordinator/bug_groups.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

void to_wire(const Bug& bug, std::uint64_t lease, proto::FoundBug& out);
/// Numbers and counts are the receiver's to give.
Bug from_wire(const proto::FoundBug& found);

void to_wire(const std::vector<BugTally>& tallies, google::protobuf::RepeatedPtrField<proto::BugTally>& out);
/// Throws std::invalid_argument for an odd count of class key halves.
std::vector<BugTally> tallies_from_wire(const google::protobuf::RepeatedPtrField<proto::BugTally>& tallies);

}  // namespace exocheck::coordinator
