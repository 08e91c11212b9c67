#include "cpu_shares.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace exocheck::bench {
namespace {

/// The next whitespace-separated number of `text`, consumed; nullopt at its end.
std::optional<std::uint64_t> next_number(std::string_view& text) {
  const auto start = text.find_first_not_of(' ');
  if (start == std::string_view::npos) return std::nullopt;
  text.remove_prefix(start);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

}  // namespace

CpuTicks cpu_ticks_in(std::string_view proc_stat, const std::vector<int>& cpus) {
  CpuTicks ticks;
  while (!proc_stat.empty()) {
    const auto end = proc_stat.find('\n');
    std::string_view line = proc_stat.substr(0, end);
    proc_stat.remove_prefix(end == std::string_view::npos ? proc_stat.size() : end + 1);
    // "cpuN user nice system idle iowait irq softirq steal guest guest_nice"; "cpu " is the sum.
    if (!line.starts_with("cpu") || line.size() < 4 || line[3] == ' ') continue;
    line.remove_prefix(3);
    const auto cpu = next_number(line);
    if (!cpu || std::find(cpus.begin(), cpus.end(), static_cast<int>(*cpu)) == cpus.end()) continue;
    // guest and guest_nice are already counted in user and nice.
    for (int field = 0; field < 8; ++field) {
      const auto value = next_number(line);
      if (!value) break;
      ticks.total += *value;
      if (field == 3 || field == 4) ticks.idle += *value;
      if (field == 7) ticks.stolen += *value;
    }
  }
  return ticks;
}

CpuTicks cpu_ticks(const std::vector<int>& cpus) {
  std::ifstream file("/proc/stat");
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return cpu_ticks_in(text, cpus);
}

nlohmann::json cpu_shares(const CpuTicks& before, const CpuTicks& after) {
  const auto total = static_cast<double>(after.total - before.total);
  const auto share = [total](std::uint64_t from, std::uint64_t to) {
    return total > 0 ? static_cast<double>(to - from) / total : 0.0;
  };
  return {{"stolen", share(before.stolen, after.stolen)}, {"idle", share(before.idle, after.idle)}};
}

double rate_with_cpus_given(double rate, const nlohmann::json& measurement) {
  const double stolen = measurement.contains("cpu_shares") ? measurement["cpu_shares"].value("stolen", 0.0) : 0.0;
  return stolen < 1 ? rate / (1 - stolen) : 0;
}

}  // namespace exocheck::bench
