#include "explore_progress.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace exocheck::cli {
namespace {

constexpr std::chrono::milliseconds kTerminalPeriod{250};
constexpr std::chrono::milliseconds kLogPeriod{5'000};

std::string progress_text(const coordinator::Progress& progress, double elapsed) {
  const auto& stats = progress.stats;
  const double rate = elapsed > 0 ? static_cast<double>(stats.paths) / elapsed : 0.0;
  return fmt::format("{} paths, {} transitions, {:.1f} paths/s, {} open leases, frontier {}, {} bugs, {:.1f} s",
                     stats.paths, stats.transitions, rate, progress.outstanding, progress.frontier, progress.bugs,
                     elapsed);
}

}  // namespace

ExploreProgress::ExploreProgress(bool terminal) : terminal_(terminal) {}

double ExploreProgress::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void ExploreProgress::update(const coordinator::Progress& progress) {
  const auto now = Clock::now();
  if (now - last_shown_ < (terminal_ ? kTerminalPeriod : kLogPeriod)) return;
  last_shown_ = now;
  const auto text = progress_text(progress, elapsed_seconds());
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
    line_shown_ = true;
  } else {
    spdlog::info("exploring: {}", text);
  }
}

void ExploreProgress::finish() {
  if (!line_shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  line_shown_ = false;
}

}  // namespace exocheck::cli
