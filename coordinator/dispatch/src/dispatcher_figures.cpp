// JobDispatcher's figures for the coordinator's metrics: read under the dispatcher's lock, one
// job's progress at a time, so that a scrape never holds it for long.
#include "job_dispatcher.hpp"

#include <algorithm>

namespace exocheck::coordinator {

JobDispatcher::Figures JobDispatcher::figures() const {
  Figures figures;
  std::vector<std::uint64_t> ids;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, job] : jobs_) ids.push_back(id);
    figures.agents = agents_.size();
    for (const auto& [id, agent] : agents_) {
      figures.slots += agent.slots;
      auto& status = figures.agent_list.emplace_back();
      status.set_name(agent.name);
      status.set_slots(agent.slots);
      status.set_job_id(agent.accepted_job);
    }
    figures.reports = reports_accepted_;
    figures.backtracks_routed = backtracks_routed_;
    for (const auto& [id, job] : jobs_) {
      for (const auto& [lease, requests] : job->routed) figures.backtracks_held += requests.size();
    }
  }
  std::sort(figures.agent_list.begin(), figures.agent_list.end(),
            [](const auto& a, const auto& b) { return a.name() < b.name(); });
  for (const auto id : ids) {
    if (auto job = progress(id)) figures.jobs.push_back(std::move(*job));
  }
  return figures;
}

}  // namespace exocheck::coordinator
