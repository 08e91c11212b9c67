#pragma once
// The engine's subtree types (engine/subtree.hpp, class_key.hpp, stats.hpp) on the wire between
// the coordinator and its agents (coordinator.proto), both ways.

#include <string>
#include <string_view>
#include <vector>

#include "exocheck/engine/class_key.hpp"
#include "exocheck/engine/stats.hpp"
#include "exocheck/engine/subtree.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

void to_wire(const engine::Subtree& subtree, proto::Subtree& out);
/// Throws std::invalid_argument for a wakeup tree whose preorder skips a depth (a subtree an agent
/// gives away reaches another agent through the coordinator, which reads it here first).
engine::Subtree from_wire(const proto::Subtree& subtree);

void to_wire(const engine::BacktrackRequest& request, proto::BacktrackRequest& out);
engine::BacktrackRequest from_wire(const proto::BacktrackRequest& request);
/// A request as RaisedBacktrack and RoutedBacktrack carry it: a proto::BacktrackRequest serialised.
std::string backtrack_bytes(const engine::BacktrackRequest& request);
/// Throws std::invalid_argument when `bytes` is not a proto::BacktrackRequest.
engine::BacktrackRequest backtrack_from_bytes(std::string_view bytes);

void to_wire(const engine::Stats& stats, proto::ExplorationStats& out);
engine::Stats from_wire(const proto::ExplorationStats& stats);

/// Keys as fixed64 pairs (high, low).
void to_wire(const std::vector<engine::ClassKey>& keys, google::protobuf::RepeatedField<std::uint64_t>& out);
/// Throws std::invalid_argument for an odd count.
std::vector<engine::ClassKey> keys_from_wire(const google::protobuf::RepeatedField<std::uint64_t>& keys);

}  // namespace exocheck::coordinator
