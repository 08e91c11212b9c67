#include "coordinator_metrics.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "exocheck/metrics/prometheus_text.hpp"

namespace exocheck::coordinator {
namespace {

using metrics::Labels;
using metrics::PrometheusText;

// "JOB_COMPLETE_NO_BUG" -> "complete_no_bug".
std::string state_label(proto::JobState state) {
  std::string name = proto::JobState_Name(state);
  if (name.starts_with("JOB_")) name = name.substr(4);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

double paths_per_second(const proto::JobProgress& job) {
  return job.elapsed_seconds() > 0 ? static_cast<double>(job.paths()) / job.elapsed_seconds() : 0.0;
}

bool is_running(const proto::JobProgress& job) {
  return job.state() == proto::JOB_RUNNING;
}

}  // namespace

std::string coordinator_metrics(const JobDispatcher::Figures& figures, const LinkCounters& counters) {
  PrometheusText text;
  std::map<std::string, std::uint64_t> by_state;
  for (int state = proto::JobState_MIN; state <= proto::JobState_MAX; ++state) {
    if (proto::JobState_IsValid(state)) by_state[state_label(static_cast<proto::JobState>(state))] = 0;
  }
  std::uint64_t paths = 0, bugs = 0, leases_out = 0, waiting = 0;
  double rate = 0;
  for (const auto& job : figures.jobs) {
    ++by_state[state_label(job.state())];
    paths += job.paths();
    bugs += job.bugs();
    if (is_running(job)) {
      leases_out += job.outstanding();
      waiting += job.frontier();
      rate += paths_per_second(job);
    }
  }
  text.family("exocheck_jobs", "gauge", "Jobs by state.");
  for (const auto& [state, count] : by_state) text.sample("exocheck_jobs", count, {{"state", state}});
  text.family("exocheck_agents_connected", "gauge", "Agent streams attached.")
      .sample("exocheck_agents_connected", static_cast<std::uint64_t>(figures.agents));
  text.family("exocheck_agent_slots", "gauge", "Slots (runs at once) of the agents attached.")
      .sample("exocheck_agent_slots", figures.slots);
  text.family("exocheck_leases_out", "gauge", "Subtrees of running jobs being explored by agents.")
      .sample("exocheck_leases_out", leases_out);
  text.family("exocheck_subtrees_waiting", "gauge", "Subtrees of running jobs waiting for an agent.")
      .sample("exocheck_subtrees_waiting", waiting);
  text.family("exocheck_paths_total", "counter", "Paths explored, all jobs.").sample("exocheck_paths_total", paths);
  text.family("exocheck_paths_per_second", "gauge", "Paths per second of the running jobs, since each started.")
      .sample("exocheck_paths_per_second", rate);
  text.family("exocheck_bugs_total", "counter", "Bugs found, all jobs.").sample("exocheck_bugs_total", bugs);
  text.family("exocheck_reports_received_total", "counter", "Agent reports (results) accepted.")
      .sample("exocheck_reports_received_total", figures.reports);
  text.family("exocheck_backtracks_routed_total", "counter", "Backtrack requests routed to the agents owning them.")
      .sample("exocheck_backtracks_routed_total", figures.backtracks_routed);
  text.family("exocheck_backtracks_held", "gauge",
              "Routed backtrack requests not yet known to have reached their agents (kept to send again).")
      .sample("exocheck_backtracks_held", figures.backtracks_held);
  text.family("exocheck_agent_messages_received_total", "counter", "Messages read from agent streams.")
      .sample("exocheck_agent_messages_received_total", counters.agent_messages.load());
  text.family("exocheck_received_bytes_total", "counter", "Bytes of the messages read from agent streams.")
      .sample("exocheck_received_bytes_total", counters.agent_bytes.load());
  text.family("exocheck_agent_messages_sent_total", "counter", "Messages written to agent streams.")
      .sample("exocheck_agent_messages_sent_total", counters.agent_writes.load());
  text.family("exocheck_client_calls_total", "counter", "Calls of the client service (submit, watch, bugs).")
      .sample("exocheck_client_calls_total", counters.client_calls.load());
  text.family("exocheck_refused_calls_total", "counter", "Calls and agent streams refused for their token.")
      .sample("exocheck_refused_calls_total", counters.refused_calls.load());

  const auto per_job = [&](const std::string& name, const std::string& type, const std::string& help,
                           const auto& value_of) {
    text.family(name, type, help);
    for (const auto& job : figures.jobs) text.sample(name, value_of(job), {{"job", std::to_string(job.job_id())}});
  };
  text.family("exocheck_job_state", "gauge", "1 for each job's state.");
  for (const auto& job : figures.jobs) {
    text.sample("exocheck_job_state", std::uint64_t{1},
                Labels{{"job", std::to_string(job.job_id())}, {"state", state_label(job.state())}});
  }
  per_job("exocheck_job_paths", "gauge", "Paths the job explored.", [](const auto& job) { return job.paths(); });
  per_job("exocheck_job_sleep_blocked", "gauge", "Executions the job cut short as redundant (sleep sets).",
          [](const auto& job) { return job.sleep_blocked(); });
  per_job("exocheck_job_transitions", "gauge", "Transitions the job explored.",
          [](const auto& job) { return job.transitions(); });
  per_job("exocheck_job_classes", "gauge", "Classes of schedules the job reached.",
          [](const auto& job) { return job.classes(); });
  per_job("exocheck_job_bugs", "gauge", "Bugs the job found.", [](const auto& job) { return job.bugs(); });
  per_job("exocheck_job_leases_out", "gauge", "The job's subtrees being explored.",
          [](const auto& job) { return job.outstanding(); });
  per_job("exocheck_job_subtrees_waiting", "gauge", "The job's subtrees waiting for an agent.",
          [](const auto& job) { return job.frontier(); });
  per_job("exocheck_job_agents", "gauge", "Agents that accepted the job and are connected.",
          [](const auto& job) { return static_cast<std::uint64_t>(job.agents()); });
  per_job("exocheck_job_elapsed_seconds", "gauge", "Seconds since the job started running.",
          [](const auto& job) { return job.elapsed_seconds(); });
  per_job("exocheck_job_paths_per_second", "gauge", "The job's paths per second since it started.",
          [](const auto& job) { return paths_per_second(job); });
  return text.text();
}

}  // namespace exocheck::coordinator
