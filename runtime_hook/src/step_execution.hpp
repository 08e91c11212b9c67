#pragma once
// Runs one macro-step's handler and classifies how it ended. Shared by both runtimes.

#include <string>

#include "exocheck/detail/envelope.hpp"
#include "wire_messages.hpp"

namespace exocheck::detail {

struct StepVerdict {
  proto::StepOutcome outcome = proto::STEP_OK;
  std::string detail;  ///< the failed check's text, or the exception's message
};

/// Delivers `envelope` to its receiver: runs the handler (or call continuation), catching
/// everything it throws. Also notices a failed check that the handler itself swallowed.
StepVerdict execute_step(const Envelope& envelope);

/// The message being handled on this thread (nullptr outside handlers).
const Envelope*& current_envelope();

}  // namespace exocheck::detail
