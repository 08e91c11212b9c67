#include "exocheck/agent/explore_progress.hpp"

#include <spdlog/spdlog.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

#include "exocheck/agent/progress_line.hpp"

namespace exocheck::agent {
namespace {

constexpr std::chrono::milliseconds kTerminalPeriod{250};
constexpr std::chrono::milliseconds kLogPeriod{5'000};

// The terminal's width, for a line that must not wrap; 80 when it cannot be asked. The last
// column stays free: a character written there leaves some terminals about to wrap.
std::size_t line_width() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1) return size.ws_col - 1u;
  return 79;
}

}  // namespace

ExploreProgress::ExploreProgress(bool terminal) : terminal_(terminal) {}

double ExploreProgress::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

bool ExploreProgress::due() const {
  return Clock::now() - last_shown_ >= (terminal_ ? kTerminalPeriod : kLogPeriod);
}

void ExploreProgress::update(const coordinator::Progress& progress) {
  if (!due()) return;
  last_shown_ = Clock::now();
  if (terminal_) {
    const auto text = progress_line(progress, elapsed_seconds(), line_width());
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
    line_shown_ = true;
  } else {
    spdlog::info("exploring: {}", progress_figures(progress, elapsed_seconds()));
  }
}

void ExploreProgress::finish() {
  if (!line_shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  line_shown_ = false;
}

}  // namespace exocheck::agent
