#pragma once
// What every picture of a trace needs: the actors as lanes, in order of appearance ("main" first),
// and where each delivered message was sent.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "proto/trace.pb.h"

namespace exocheck::agent {

inline constexpr const char* kMainLane = "main";

struct TraceLanes {
  std::vector<std::string> lanes;                ///< actor ids; lanes[0] is main (step 0)
  std::map<std::string, std::size_t> lane_of;    ///< actor id (or "env") -> lane
  std::map<std::string, std::uint32_t> sent_at;  ///< message id -> the step that sent it
  std::map<std::string, std::string> type_of;    ///< actor id -> its type, where the trace names it
};

TraceLanes lanes_of(const proto::TraceFile& trace);

/// How a lane is titled: "main", or "actor ID" with its type when the trace names it
/// ("actor 0.1 (Worker)").
std::string lane_title(const TraceLanes& lanes, std::size_t lane);

/// The lane of an event's actor ("env", step 0's, is main's).
std::size_t lane_of_event(const TraceLanes& lanes, const proto::Event& event);

}  // namespace exocheck::agent
