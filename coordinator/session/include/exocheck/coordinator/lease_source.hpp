#pragma once
// Where a worker loop (agent/worker/local_agent.hpp) takes its leases from and hands its results to:
// one exploration session in embedded mode, or the subtrees a coordinator leased to an agent
// (agent/daemon/subtree_sessions.hpp). The loop is the same in both.

#include <chrono>
#include <cstdint>
#include <optional>

#include "exocheck/coordinator/execution_conversion.hpp"
#include "exocheck/coordinator/lease.hpp"
#include "exocheck/engine/execution.hpp"
#include "proto/control.pb.h"

namespace exocheck::coordinator {

struct ExplorationOptions;

/// What a worker gets back for a result: its next lease, if one is ready, and whether the source
/// is finished.
struct Handover {
  bool accepted = false;  ///< the result was taken (a second one for a lease is not)
  std::optional<Lease> next;
  bool finished = false;
  /// Backtrack requests the source holds for others after this result (an agent's subtree: see
  /// agent/daemon/subtree_sessions.cpp), which wait for the next report.
  std::size_t requests_held = 0;
};

class LeaseSource {
 public:
  virtual ~LeaseSource() = default;

  /// The next lease, or nothing when none is ready now or the source is stopping.
  virtual std::optional<Lease> next() = 0;
  /// The result of lease `id`'s run, its events from step 0, and the next lease under one lock
  /// where the source has one. The next lease's request is written over `spent`.
  virtual Handover complete_and_next(std::uint64_t id, EventSpan events, const proto::RunResult& result,
                                     proto::RunRequest spent) = 0;
  /// The same for a lean result that the caller decoded into `execution` itself.
  virtual Handover complete_and_next(std::uint64_t id, const engine::Execution& execution,
                                     const proto::RunResult& result, proto::RunRequest spent) = 0;
  /// The lease's run was lost: it is leased again (or dropped, once stopping).
  virtual void abandon(std::uint64_t id) = 0;
  /// Stops handing out work; outstanding results are still accepted.
  virtual void stop() = 0;
  /// True when nothing more will be leased and nothing is outstanding: the workers end.
  virtual bool finished() const = 0;
  /// The subject, its arguments and the per-run settings (step limit, run timeout) every lease shares.
  virtual const ExplorationOptions& options() const = 0;
};

}  // namespace exocheck::coordinator
