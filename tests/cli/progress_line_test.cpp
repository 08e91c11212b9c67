// `explore`'s live line: the bar, the share, the time left, and the cut to the terminal's width.
#include "exocheck/agent/progress_line.hpp"

#include <gtest/gtest.h>

namespace exocheck::agent {
namespace {

coordinator::Progress progress_at(std::optional<double> share) {
  coordinator::Progress progress;
  progress.stats.paths = 1200;
  progress.bugs = 2;
  progress.outstanding = 3;
  progress.explored_share = share;
  return progress;
}

TEST(ProgressLine, ShowsTheShareExploredAsABarAndThePercent) {
  EXPECT_EQ(progress_line(progress_at(0.25), 10.0, 200),
            "[#####---------------]  25% ~30s left | 1200 paths, 120 paths/s, 2 bugs, 3 leases out, 10.0 s");
}

TEST(ProgressLine, EstimatesNoTimeLeftTooEarly) {
  EXPECT_EQ(progress_line(progress_at(0.005), 10.0, 200),
            "[--------------------]   0% | 1200 paths, 120 paths/s, 2 bugs, 3 leases out, 10.0 s");
  EXPECT_EQ(progress_line(progress_at(0.5), 0.5, 200),
            "[##########----------]  50% | 1200 paths, 2400 paths/s, 2 bugs, 3 leases out, 0.5 s");
}

TEST(ProgressLine, NeverSaysAHundredPercentBeforeTheEnd) {
  EXPECT_EQ(progress_line(progress_at(0.9999), 100.0, 27), "[###################-]  99%");
  EXPECT_EQ(progress_line(progress_at(1.0), 100.0, 27), "[####################] 100%");
}

TEST(ProgressLine, WithoutAnEstimateShowsTheFiguresOnly) {
  EXPECT_EQ(progress_line(progress_at(std::nullopt), 4.0, 200), "1200 paths, 300 paths/s, 2 bugs, 3 leases out, 4.0 s");
}

TEST(ProgressLine, IsCutToTheWidth) {
  for (std::size_t width : {0u, 1u, 10u, 40u, 79u}) {
    EXPECT_LE(progress_line(progress_at(0.25), 10.0, width).size(), width);
  }
}

TEST(ProgressLine, FiguresForALogSayTheShareIsAnEstimate) {
  EXPECT_EQ(
      progress_figures(progress_at(0.436), 10.0),
      "1200 paths, 0 transitions, 120.0 paths/s, 3 open leases, frontier 0, 2 bugs, 43% explored (estimate), 10.0 s");
}

TEST(ProgressLine, APortfoliosSampledRunsStandBesideItsPaths) {
  auto progress = progress_at(0.25);
  progress.stats.sampled = 1190;
  EXPECT_EQ(progress_line(progress, 10.0, 200),
            "[#####---------------]  25% ~30s left | 1200 paths (+1190 sampled), 120 paths/s, 2 bugs, 3 leases out, "
            "10.0 s");
  EXPECT_EQ(progress_figures(progress, 10.0),
            "1200 paths (+1190 sampled), 0 transitions, 120.0 paths/s, 3 open leases, frontier 0, 2 bugs, 25% "
            "explored (estimate), 10.0 s");
}

TEST(ShortDuration, ReadsAsSecondsMinutesOrHours) {
  EXPECT_EQ(short_duration(44.6), "45s");
  EXPECT_EQ(short_duration(72), "1m12s");
  EXPECT_EQ(short_duration(7500), "2h05m");
  EXPECT_EQ(short_duration(-3), "0s");
}

}  // namespace
}  // namespace exocheck::agent
