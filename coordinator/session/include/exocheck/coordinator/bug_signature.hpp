#pragma once
// What makes two failing runs the same bug to a person (DESIGN.md, "Bugs"): where most paths fail,
// a report per path says nothing more than a report per signature with its counts. Computed from
// a run's events and result alike wherever the run ended (embedded explorer, agent), so that the
// groups are the same in every mode.

#include <string>
#include <vector>

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

/// One way a run failed: its signature and, for people, its verdict with ids.
struct Failure {
  BugSignature signature;
  std::string detail;
};

/// Every way a run failed: the run's (signature_of, its result's detail), then each later step
/// that failed a check or threw in a way of its own. A failed check ends its actor, not the run:
/// two actors may fail in one run, and which fails first in the trace is an order of independent
/// steps that a reduction explores once (one execution per class): each is a bug of that class.
std::vector<Failure> failures_of(EventSpan events, const proto::RunResult& result);
/// The same for a trace file's run.
std::vector<Failure> failures_of(const proto::TraceFile& trace);

}  // namespace exocheck::coordinator
