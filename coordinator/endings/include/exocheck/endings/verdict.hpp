#pragma once
// How an exploration ended (or that it has not): the session's verdict, the job state a
// coordinator reports for it, the exit status of `exocheck explore`, and the word summaries use.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "exocheck/endings/exit_status.hpp"
#include "proto/endings.pb.h"

namespace exocheck::endings {

enum class Verdict {
  kRunning,
  kCompleteNoBug,  ///< every class explored, no bug
  kBugFound,
  kLimitReached,  ///< stopped by a bound (max paths, time limit) or a cancel before completion, no bug
};

struct VerdictRow {
  Verdict verdict;
  proto::JobState state;
  ExitStatus exit_status;  ///< once the exploration is over
  std::string_view word;   ///< summary.json's "verdict"
};

// A running exploration has no exit status yet; kStoppedByLimit is what stopping it then means.
inline constexpr std::array<VerdictRow, 4> kVerdicts{{
    {Verdict::kRunning, proto::JOB_RUNNING, kStoppedByLimit, "running"},
    {Verdict::kCompleteNoBug, proto::JOB_COMPLETE_NO_BUG, kNoBug, "complete"},
    {Verdict::kBugFound, proto::JOB_BUG_FOUND, kBug, "bug"},
    {Verdict::kLimitReached, proto::JOB_LIMIT_REACHED, kStoppedByLimit, "limit"},
}};

static_assert(
    [] {
      for (std::size_t i = 0; i < kVerdicts.size(); ++i) {
        if (static_cast<std::size_t>(kVerdicts[i].verdict) != i) return false;
      }
      return true;
    }(),
    "kVerdicts lists every Verdict once, in the enum's order");

inline const VerdictRow& row_of(Verdict verdict) {
  return kVerdicts[static_cast<std::size_t>(verdict)];
}

/// The verdict a job in `state` has reached, or nothing (queued, failed).
inline std::optional<Verdict> verdict_of(proto::JobState state) {
  for (const auto& row : kVerdicts) {
    if (row.state == state) return row.verdict;
  }
  return std::nullopt;
}

}  // namespace exocheck::endings
