#pragma once
// Which of a run's events an agent sends back with its result, and how much of each. The
// coordinator's tree already holds the steps of the run's prefix (steps 0 .. prefix length - 1:
// the same schedule gives the same steps), and exploration reads no text meant for people
// (summaries, type names, details), so a lean result leaves both out and the coordinator's work
// per result follows the new steps only. A run is sent whole when the coordinator needs all of
// it: a bug (its trace must replay and read on its own), a run that lost messages (warnings name
// them by their sends), a RANKED run (HMS and SGR learn from whole runs), and every run of a
// determinism check (RunRequest.whole_result: final states are compared, traces kept). A run
// the explorer needs whole (RunRequest.all_steps) is lean but keeps its prefix's steps, but for
// those the explorer holds already (RunRequest.steps_held).

#include <cstddef>
#include <vector>

#include "proto/control.pb.h"
#include "proto/trace.pb.h"

namespace exocheck::wire {

/// True when the run's result may be lean: no prefix steps, no text for people.
inline bool lean_result(const proto::RunRequest& request, const proto::RunResult& result) {
  const bool plain_ending = result.status() == proto::RUN_COMPLETED || result.status() == proto::RUN_SLEEP_BLOCKED;
  return plain_ending && result.dead_letters_size() == 0 && request.heuristic() != proto::RANKED &&
         !request.whole_result();
}

/// The steps numbered below this may be left out of the run's result (0: send every step).
inline std::size_t first_step_to_send(const proto::RunRequest& request, const proto::RunResult& result) {
  if (!lean_result(request, result)) return 0;
  return request.all_steps() ? request.steps_held() : static_cast<std::size_t>(request.prefix_size());
}

/// Clears what exploration does not read from a lean result: the final state's summaries (only
/// a bug's trace shows them; a determinism check asks for whole results).
inline void strip_for_exploration(proto::RunResult& result) {
  result.clear_final_state();
}

/// Clears what exploration does not read from a lean result's event.
inline void strip_for_exploration(proto::Event& event) {
  event.clear_sender();
  event.clear_type();
  event.clear_summary();
  event.clear_detail();
  for (auto& sent : *event.mutable_sent()) sent.clear_type();
}

/// The index of the first event to send among `events` (in step order, from step 0).
template <typename Events>
std::size_t first_event_to_send(const Events& events, const proto::RunRequest& request,
                                const proto::RunResult& result) {
  const std::size_t first_step = first_step_to_send(request, result);
  std::size_t index = 0;
  while (index < static_cast<std::size_t>(events.size()) && events[index].step() < first_step) ++index;
  return index;
}

/// What an agent puts in a lease's result: the events from first_event_to_send() on, and for a
/// lean result no text for people (in the events and in `result`).
inline void assign_events_to_send(const std::vector<proto::Event>& events, const proto::RunRequest& request,
                                  proto::RunResult& result, google::protobuf::RepeatedPtrField<proto::Event>& out) {
  const auto first = static_cast<std::ptrdiff_t>(first_event_to_send(events, request, result));
  out.Assign(events.begin() + first, events.end());
  if (!lean_result(request, result)) return;
  for (auto& event : out) strip_for_exploration(event);
  strip_for_exploration(result);
}

}  // namespace exocheck::wire
