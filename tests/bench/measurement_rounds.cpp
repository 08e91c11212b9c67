#include "measurement_rounds.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace exocheck::bench {
namespace {

using nlohmann::json;

double number(const json& object, const char* key) {
  return object.contains(key) ? object[key].get<double>() : 0;
}

/// `key` of every round, weighted by its executions, over `executions`.
double weighted(const std::vector<json>& rounds, const json::json_pointer& key, double executions) {
  double sum = 0;
  for (const auto& round : rounds) sum += round.value(key, 0.0) * number(round, "executions");
  return executions > 0 ? sum / executions : 0;
}

}  // namespace

json combine_rounds(const std::vector<json>& rounds) {
  for (const auto& round : rounds) {
    if (round.contains("error")) return round;
  }
  if (rounds.size() <= 1) return rounds.empty() ? json{{"error", "no rounds measured"}} : rounds.front();
  json combined = rounds.front();
  double executions = 0, wall = 0;
  std::uint64_t explorations = 0;
  bool complete = true;
  for (const auto& round : rounds) {
    executions += number(round, "executions");
    wall += number(round, "wall_seconds");
    explorations += round.value("explorations", std::uint64_t{0});
    complete = complete && round.value("complete", false);
  }
  combined["rounds"] = rounds.size();
  combined["executions"] = static_cast<std::uint64_t>(executions);
  combined["explorations"] = explorations;
  combined["wall_seconds"] = wall;
  combined["complete"] = complete;
  combined["executions_per_second"] = wall > 0 ? executions / wall : 0;
  combined["us_per_execution"] = executions > 0 ? wall * 1e6 / executions : 0;
  for (const char* key : {"steps_per_execution", "replayed_steps_per_execution"}) {
    if (combined.contains(key))
      combined[key] = weighted(rounds, json::json_pointer("/" + std::string(key)), executions);
  }
  for (const char* group : {"cpu_us_per_execution", "worker_wait_us_per_execution"}) {
    if (!combined.contains(group)) continue;
    for (auto& [key, value] : combined[group].items()) {
      value = weighted(rounds, json::json_pointer("/" + std::string(group) + "/" + key), executions);
    }
  }
  // Shares of the CPUs' time: weighted by each round's time.
  if (combined.contains("cpu_shares")) {
    for (auto& [key, value] : combined["cpu_shares"].items()) {
      double sum = 0;
      for (const auto& round : rounds) sum += round["cpu_shares"].value(key, 0.0) * number(round, "wall_seconds");
      value = wall > 0 ? sum / wall : 0;
    }
  }
  if (combined.contains("peak_rss_kib")) {
    for (auto& [key, value] : combined["peak_rss_kib"].items()) {
      for (const auto& round : rounds) value = std::max(value.get<long>(), round["peak_rss_kib"].value(key, 0L));
    }
  }
  if (combined.contains("runs")) {
    for (auto& [key, value] : combined["runs"].items()) {
      std::uint64_t sum = 0;
      for (const auto& round : rounds) sum += round["runs"].value(key, std::uint64_t{0});
      value = sum;
    }
  }
  return combined;
}

std::vector<double> ratios_per_round(const std::vector<std::vector<json>>& faster, const std::vector<json>& base) {
  std::vector<double> ratios;
  for (std::size_t round = 0; round < base.size() && round < faster.size(); ++round) {
    const double below = number(base[round], "executions_per_second");
    double above = 0;
    bool failed = base[round].contains("error");
    for (const auto& measurement : faster[round]) {
      above += number(measurement, "executions_per_second");
      failed = failed || measurement.contains("error");
    }
    ratios.push_back(failed || below <= 0 ? 0 : above / below);
  }
  return ratios;
}

}  // namespace exocheck::bench
