#pragma once
// A trace for people: what was run, one aligned line per macro-step, then how the run ended.

#include <cstdint>
#include <string>
#include <vector>

#include "proto/trace.pb.h"

namespace exocheck::agent {

/// A sparse vector clock as "{0:1, 0.1:2}" ("{}" when empty).
std::string format_clock(const google::protobuf::RepeatedPtrField<proto::ClockEntry>& clock);

/// "100 ms", "1.5 s", "250 us": a virtual duration for people.
std::string duration_text(std::uint64_t ns);

/// A run status in words, e.g. "assertion failed" for RUN_ASSERTION_FAILED.
std::string status_in_words(proto::RunStatus status);

/// "timer fired at 2 ms" for a timer's firing, else "".
std::string firing_text(const proto::Event& event);
/// What the step's handler chose (exocheck::choose), e.g. "chose 1 of 3, then 0 of 2"; "" for none.
std::string choices_text(const proto::Event& event);
/// The specification monitors the step notified ("notified ShutWhenArmed: Opened"); empty if none.
std::string notifications_text(const proto::Event& event);
/// A partition's changes in a step: "link cut at 1#3", "link healed at 1#5".
std::vector<std::string> link_changes(const proto::Event& event);
/// The faults a step suffered: "crashed", "crashed, restarted", "lost 0#3", "link cut at 0#3",
/// "0#4 sent twice"; "".
std::string faults_of(const proto::Event& event);
/// The faults a run could suffer: "crash 1 (Coordinator), lose 1 per actor and run"; "" for none.
std::string faults_text(const proto::FaultBudget& faults);

/// The whole timeline of `trace`: the effective options, one line per step (step 0 as what main
/// did), then the result with its details and warnings. Every line ends with '\n'.
std::string format_timeline(const proto::TraceFile& trace);

}  // namespace exocheck::agent
