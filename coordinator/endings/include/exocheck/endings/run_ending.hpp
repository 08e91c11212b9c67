#pragma once
// How one run ended: the wire's RunStatus (set by the hook or the agent), what the engine makes
// of it, and the words people read in timelines and reports. One row per status.

#include <array>
#include <string>
#include <string_view>

#include "exocheck/engine/execution.hpp"
#include "proto/trace.pb.h"

namespace exocheck::endings {

struct RunEndingRow {
  proto::RunStatus status;
  engine::Ending ending;  ///< the agent's findings about a process (hang, garbage, ...) are crashes to the engine
  std::string_view words;
};

inline constexpr std::array<RunEndingRow, 17> kRunEndings{{
    {proto::RUN_UNKNOWN, engine::Ending::kCrash, "unknown"},
    {proto::RUN_COMPLETED, engine::Ending::kCompleted, "completed"},
    {proto::RUN_DEADLOCK, engine::Ending::kDeadlock, "deadlock"},
    {proto::RUN_ASSERTION_FAILED, engine::Ending::kAssertion, "assertion failed"},
    {proto::RUN_EXCEPTION, engine::Ending::kException, "uncaught exception"},
    {proto::RUN_STEP_LIMIT, engine::Ending::kStepLimit, "step limit exceeded"},
    {proto::RUN_DIVERGENCE, engine::Ending::kDivergence, "replay divergence"},
    {proto::RUN_CRASH, engine::Ending::kCrash, "crash"},
    {proto::RUN_HANG, engine::Ending::kCrash, "hang"},
    {proto::RUN_EXIT_WITHOUT_RESULT, engine::Ending::kCrash, "exited without a result"},
    {proto::RUN_PROTOCOL_ERROR, engine::Ending::kCrash, "protocol error"},
    {proto::RUN_LAUNCH_FAILED, engine::Ending::kCrash, "launch failed"},
    {proto::RUN_SLEEP_BLOCKED, engine::Ending::kSleepBlocked, "sleep-blocked (redundant path)"},
    {proto::RUN_NONDETERMINISTIC, engine::Ending::kCrash, "final state not unique"},
    // Never given to the engine: the agent stops the exploration (local_agent.cpp).
    {proto::RUN_UNSUPPORTED, engine::Ending::kCrash, "not explorable by exocheck"},
    {proto::RUN_EXOCHECK_FAILED, engine::Ending::kCrash, "exocheck failed"},
    {proto::RUN_LIVENESS, engine::Ending::kLiveness, "liveness"},
}};

/// The row of `status`, or nullptr for a number this build does not know.
inline const RunEndingRow* run_ending_row(proto::RunStatus status) {
  for (const auto& row : kRunEndings) {
    if (row.status == status) return &row;
  }
  return nullptr;
}

/// What the engine makes of a run that ended with `status` (an unknown number: a crash).
inline engine::Ending to_ending(proto::RunStatus status) {
  const auto* row = run_ending_row(status);
  return row != nullptr ? row->ending : engine::Ending::kCrash;
}

/// "assertion failed", "hang", ...; "status N" for a number this build does not know.
inline std::string words_of(proto::RunStatus status) {
  const auto* row = run_ending_row(status);
  return row != nullptr ? std::string(row->words) : "status " + std::to_string(status);
}

}  // namespace exocheck::endings
