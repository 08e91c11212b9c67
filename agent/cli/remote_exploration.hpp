#pragma once
// `exocheck explore --coordinator ADDR`: the same exploration as embedded mode, run by a
// coordinator daemon and its agents; the outcome has the same shape, so the report is the same.

#include <string>

#include "exocheck/link/link_settings.hpp"
#include "explore_report.hpp"

namespace exocheck::cli {

/// Submits `settings` to the coordinator at `address`, shows its progress on stderr as embedded
/// mode does, and collects the outcome with every bug's trace. Throws InputError (one line) when
/// the subject cannot be read here, the coordinator does not answer or refuses the settings, or
/// the job fails (no agent can run the subject, the subject is not linked with the hook).
ExploreOutcome explore_remotely(const ExploreSettings& settings, const std::string& address,
                                const link::LinkSettings& link);

}  // namespace exocheck::cli
