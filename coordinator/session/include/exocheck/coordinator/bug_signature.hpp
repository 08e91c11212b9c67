#pragma once
// What makes two failing runs the same bug to a person (DESIGN.md, "Bugs"): where most paths fail,
// a report per path says nothing more than a report per signature with its counts. Computed from
// a run's events and result alike wherever the run ended (embedded explorer, agent), so that the
// groups are the same in every mode.

#include <string>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "proto/trace.pb.h"

namespace exocheck::coordinator {

struct BugSignature {
  proto::RunStatus status = proto::RUN_UNKNOWN;
  /// The failing step's receiver and message, by type (an assertion or an exception); "" when the
  /// run's end is no step's (a deadlock, a crash, a hang).
  std::string actor_type;
  std::string message_type;
  /// The check's text or the exception's, numbers masked ("two leaders in term <n>"); the signal's
  /// name; the deadlock's waiting set (who waits for the reply to what by type, or without such
  /// waits, what is pending for whom); the determinism check's difference.
  std::string what;

  /// Equal exactly for equal signatures.
  std::string key() const;
  /// For people, after the kind in words: "in Cell handling IsMine: mine counted twice".
  std::string text() const;
  friend bool operator==(const BugSignature&, const BugSignature&) = default;
};

/// The signature of a run that ended in a bug.
BugSignature signature_of(EventSpan events, const proto::RunResult& result);
/// The same for a trace file's run (a bug found and sent on with its trace).
BugSignature signature_of(const proto::TraceFile& trace);

}  // namespace exocheck::coordinator
