#pragma once
// The coordinator's metrics in Prometheus text format: jobs by state, agents and their slots,
// subtrees out and waiting, paths and paths/s, bugs, what came over the links, and each job's
// progress (labelled job="ID").

#include <string>

#include "coordinator_server.hpp"
#include "job_dispatcher.hpp"

namespace exocheck::coordinator {

std::string coordinator_metrics(const JobDispatcher::Figures& figures, const LinkCounters& counters);

}  // namespace exocheck::coordinator
