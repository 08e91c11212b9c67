#include "agent_metrics.hpp"

#include <algorithm>
#include <cctype>

#include "exocheck/metrics/prometheus_text.hpp"

namespace exocheck::agent {
namespace {

// "RUN_EXIT_WITHOUT_RESULT" -> "exit_without_result".
std::string status_label(int status) {
  std::string name = proto::RunStatus_Name(static_cast<proto::RunStatus>(status));
  if (name.starts_with("RUN_")) name = name.substr(4);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

std::uint64_t runs_of(const RunTally& tally, proto::RunStatus status) {
  return tally.runs_by_status[static_cast<std::size_t>(status)].load(std::memory_order_relaxed);
}

}  // namespace

std::string agent_metrics(const RunTally& tally, std::uint32_t slots, bool connected) {
  metrics::PrometheusText text;
  std::uint64_t runs = 0;
  text.family("exocheck_agent_runs_total", "counter", "Runs of subjects, by how they ended.");
  for (int status = proto::RunStatus_MIN; status <= proto::RunStatus_MAX; ++status) {
    if (!proto::RunStatus_IsValid(status) || status == proto::RUN_UNKNOWN) continue;
    const auto count = runs_of(tally, static_cast<proto::RunStatus>(status));
    runs += count;
    text.sample("exocheck_agent_runs_total", count, {{"status", status_label(status)}});
  }
  text.family("exocheck_agent_runs_all_total", "counter", "Runs of subjects, however they ended.")
      .sample("exocheck_agent_runs_all_total", runs);
  text.family("exocheck_agent_crashes_total", "counter", "Runs whose subject was killed by a signal.")
      .sample("exocheck_agent_crashes_total", runs_of(tally, proto::RUN_CRASH));
  text.family("exocheck_agent_hangs_total", "counter", "Runs stopped at the per-run timeout.")
      .sample("exocheck_agent_hangs_total", runs_of(tally, proto::RUN_HANG));
  text.family("exocheck_agent_fork_server_starts_total", "counter",
              "Fork servers of subjects started, first or again after one died or its binary was rebuilt.")
      .sample("exocheck_agent_fork_server_starts_total", tally.server_starts.load(std::memory_order_relaxed));
  text.family("exocheck_agent_slots", "gauge", "Runs at once.").sample("exocheck_agent_slots", std::uint64_t{slots});
  text.family("exocheck_agent_connected", "gauge", "1 while the stream to the coordinator is open.")
      .sample("exocheck_agent_connected", std::uint64_t{connected ? 1u : 0u});
  return text.text();
}

}  // namespace exocheck::agent
