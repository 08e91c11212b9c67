#pragma once
// A job's book of leases (SubtreeLedger::Image) in a compacted journal (journal.proto,
// LedgerState), both ways. Workers go by their agent instances' names: a restart numbers them anew.

#include <cstdint>
#include <functional>
#include <string>

#include "exocheck/coordinator/subtree_ledger.hpp"
#include "proto/journal.pb.h"

namespace exocheck::coordinator {

void to_wire(const SubtreeLedger::Image& image, proto::LedgerState& out,
             const std::function<std::string(std::uint64_t worker)>& instance_of);
/// Throws std::invalid_argument for a state that does not fit (a giver or gift not in it, odd keys).
SubtreeLedger::Image image_from_wire(const proto::LedgerState& state,
                                     const std::function<std::uint64_t(const std::string& instance)>& worker_of);

}  // namespace exocheck::coordinator
