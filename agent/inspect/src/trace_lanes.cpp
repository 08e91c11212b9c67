#include "trace_lanes.hpp"

namespace exocheck::agent {
namespace {

void add_lane(TraceLanes& lanes, const std::string& actor) {
  if (lanes.lane_of.count(actor) != 0) return;
  lanes.lane_of.emplace(actor, lanes.lanes.size());
  lanes.lanes.push_back(actor);
}

}  // namespace

TraceLanes lanes_of(const proto::TraceFile& trace) {
  TraceLanes lanes;
  add_lane(lanes, kMainLane);
  lanes.lane_of.emplace("env", 0);
  for (const auto& event : trace.events()) {
    if (event.step() != 0) add_lane(lanes, event.actor());
    for (const auto& created : event.created()) add_lane(lanes, created);
    for (const auto& type : event.actor_types()) lanes.type_of[type.actor()] = type.type();
    for (const auto& sent : event.sent()) {
      lanes.sent_at.emplace(sent.id(), event.step());
      add_lane(lanes, sent.receiver());
    }
  }
  return lanes;
}

std::string lane_title(const TraceLanes& lanes, std::size_t lane) {
  if (lane == 0) return kMainLane;
  const std::string& actor = lanes.lanes.at(lane);
  const auto type = lanes.type_of.find(actor);
  return "actor " + actor + (type != lanes.type_of.end() ? " (" + type->second + ")" : "");
}

std::size_t lane_of_event(const TraceLanes& lanes, const proto::Event& event) {
  if (event.step() == 0) return 0;
  return lanes.lane_of.at(event.actor());
}

}  // namespace exocheck::agent
