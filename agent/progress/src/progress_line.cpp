#include "exocheck/agent/progress_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace exocheck::agent {
namespace {

constexpr std::size_t kBarCells = 20;
// Below this share or time, the rate of progress says too little to extrapolate from.
constexpr double kLeastShareForEstimate = 0.01;
constexpr double kLeastSecondsForEstimate = 1.0;

std::string bar(double share) {
  const auto cells = static_cast<std::size_t>(std::floor(std::clamp(share, 0.0, 1.0) * kBarCells));
  return "[" + std::string(cells, '#') + std::string(kBarCells - cells, '-') + "]";
}

std::string time_left(double share, double elapsed) {
  if (share < kLeastShareForEstimate || elapsed < kLeastSecondsForEstimate) return "";
  if (share >= 1.0) return "";
  return " ~" + short_duration(elapsed * (1.0 - share) / share) + " left";
}

// Whole percent, never 100 before the end: a rounded 99.7% is not done.
int whole_percent(double share) {
  return std::min(share >= 1.0 ? 100 : 99, static_cast<int>(std::floor(std::clamp(share, 0.0, 1.0) * 100.0)));
}

// The columns of a UTF-8 text, for the cut: every code point counts one.
std::string cut_to(std::string text, std::size_t width) {
  std::size_t columns = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (columns++ == width) {
      text.resize(i);
      break;
    }
  }
  return text;
}

// A portfolio's sampled runs beside its paths ("" for any other exploration).
std::string sampled_runs(const engine::Stats& stats) {
  return stats.sampled == 0 ? "" : fmt::format(" (+{} sampled)", stats.sampled);
}

}  // namespace

std::string short_duration(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  if (total < 60) return fmt::format("{}s", total);
  if (total < 3600) return fmt::format("{}m{:02}s", total / 60, total % 60);
  return fmt::format("{}h{:02}m", total / 3600, total % 3600 / 60);
}

std::string progress_figures(const coordinator::Progress& progress, double elapsed) {
  const auto& stats = progress.stats;
  const double rate = elapsed > 0 ? static_cast<double>(stats.paths) / elapsed : 0.0;
  std::string share;
  if (progress.explored_share)
    share = fmt::format(", {}% explored (estimate)", whole_percent(*progress.explored_share));
  return fmt::format("{} paths{}, {} transitions, {:.1f} paths/s, {} open leases, frontier {}, {} bugs{}, {:.1f} s",
                     stats.paths, sampled_runs(stats), stats.transitions, rate, progress.outstanding, progress.frontier,
                     progress.bugs, share, elapsed);
}

std::string progress_line(const coordinator::Progress& progress, double elapsed, std::size_t width) {
  const auto& stats = progress.stats;
  const double rate = elapsed > 0 ? static_cast<double>(stats.paths) / elapsed : 0.0;
  std::string head;
  if (progress.explored_share) {
    const double share = *progress.explored_share;
    head = fmt::format("{} {:3}%{} | ", bar(share), whole_percent(share), time_left(share, elapsed));
  }
  const auto figures = fmt::format("{} paths{}, {:.0f} paths/s, {} bugs, {} leases out, {:.1f} s", stats.paths,
                                   sampled_runs(stats), rate, progress.bugs, progress.outstanding, elapsed);
  return cut_to(head + figures, width);
}

}  // namespace exocheck::agent
