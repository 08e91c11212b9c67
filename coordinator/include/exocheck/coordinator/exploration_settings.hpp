#pragma once
// A client's ExplorationSettings (coordinator.proto) checked and turned into the session's options.

#include <chrono>

#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/options/bounds.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

/// A submission, validated: what the session needs plus what the coordinator keeps for itself.
struct JobSettings {
  ExplorationOptions exploration;
  std::chrono::milliseconds run_timeout = options::kDefaultRunTimeout;  ///< when the client leaves it 0
  std::chrono::milliseconds time_limit{0};                              ///< 0: none
  std::string sha256;
};

/// Validates `request`. Throws std::invalid_argument with one line naming the bad field.
JobSettings to_job_settings(const proto::SubmitRequest& request);
/// The same job as an agent is offered it (its settings, subject and digest as submitted).
JobSettings to_job_settings(const proto::JobOffer& offer);

}  // namespace exocheck::coordinator
