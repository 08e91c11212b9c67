#pragma once
// An exploration's options on the wire (ExplorationSettings, coordinator.proto): the client encodes
// them once, the coordinator decodes and checks a submission once (with the rules the CLI applies,
// options/option_rules.hpp), and each agent decodes the job offer once.

#include "exocheck/coordinator/exploration_session.hpp"
#include "proto/coordinator.pb.h"

namespace exocheck::coordinator {

/// A submission, checked: the session's options and the digest agents compare the subject with.
struct JobSettings {
  ExplorationOptions exploration;
  std::string sha256;
};

/// `options` as ExplorationSettings (the subject and its arguments travel beside them).
proto::ExplorationSettings to_wire(const ExplorationOptions& options);

/// A client's submission, decoded and checked. Throws std::invalid_argument with one line naming
/// the bad field or the rule it breaks.
JobSettings to_job_settings(const proto::SubmitRequest& request);

/// The options of a job an agent is offered, as the coordinator checked them. Throws
/// std::invalid_argument for a value this build does not know.
ExplorationOptions options_of(const proto::JobOffer& offer);

}  // namespace exocheck::coordinator
