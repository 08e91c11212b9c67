#pragma once
// `explore --from TRACE [--keep-steps K]`: the classes that share a trace's first K deliveries (a
// recorded free run's, or a bug's), to show which other orders after them fail and which pass.

#include <cstddef>
#include <optional>
#include <string>

#include "exocheck/coordinator/exploration_session.hpp"
#include "exocheck/engine/subtree.hpp"
#include "subject_command.hpp"

namespace exocheck::cli {

struct ExploreFrom {
  std::string trace;        ///< its path
  engine::Subtree subtree;  ///< the configuration after the kept deliveries, and all below it
  std::size_t kept = 0;
  std::size_t failure = 0;  ///< the delivery the trace's failure is about (1-based), its last for none
};

/// Reads `path` and makes `session` explore below its first `keep_steps` deliveries (default: all
/// before the failing one): the subject and its arguments (unless `subject` names them), the
/// delivery order, timer semantics and faults become the trace's. Throws InputError.
ExploreFrom explore_from(const std::string& path, std::optional<std::size_t> keep_steps, const SubjectCommand& subject,
                         coordinator::ExplorationOptions& session);

}  // namespace exocheck::cli
