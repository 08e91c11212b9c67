#include "bug_replays.hpp"

#include <functional>

#include <fmt/format.h>

#include "bug_needs.hpp"
#include "exocheck/options/option_flags.hpp"
#include "interruption.hpp"
#include "recorded_run.hpp"
#include "trace_shrinking.hpp"

namespace exocheck::cli {
namespace {

// A bug's needs take a few replays: a report at a time limit gets them within a second of it, and
// a long run's replays (a step limit's) stop after a few seconds, what is left not checked.
constexpr std::chrono::milliseconds kNeedsGrace{1000};
constexpr std::chrono::seconds kNeedsPerBug{5};

std::function<bool()> stop_at_limit(const ExploreSettings& settings, std::chrono::steady_clock::time_point started,
                                    std::chrono::milliseconds grace = {}) {
  const auto limit =
      settings.session.time_limit.count() == 0 ? settings.session.time_limit : settings.session.time_limit + grace;
  return [limit, started] {
    return Interruption::requested() || (limit.count() > 0 && std::chrono::steady_clock::now() - started >= limit);
  };
}

std::string what_came_first() {
  return Interruption::requested() ? "Ctrl-C" : std::string(options::kTimeLimit.flag);
}

}  // namespace

void shrink_bugs(const ExploreSettings& settings, ExploreOutcome& outcome,
                 std::chrono::steady_clock::time_point started) {
  const auto stop = stop_at_limit(settings, started);
  std::size_t left = 0;
  for (const auto& bug : outcome.bugs) {
    outcome.shrunk.emplace_back();
    if (!bug.has_trace()) continue;
    if (stop()) {
      ++left;
      continue;
    }
    try {
      const auto replay =
          settings_to_replay(bug.trace, SubjectCommand{}, settings.session.run_timeout, "explore --shrink");
      auto shrunk = shrink_failing_trace(bug.trace, replay, stop);
      left += shrunk.cut_short ? 1 : 0;
      outcome.shrunk.back() = std::move(shrunk.trace);
    } catch (const std::exception& error) {
      outcome.warnings.push_back(fmt::format("bug {} was not shrunk: {}", bug.number, error.what()));
    }
  }
  if (left != 0) {
    outcome.warnings.push_back(fmt::format("{} {} not shrunk to the end: {} came first", left,
                                           left == 1 ? "bug was" : "bugs were", what_came_first()));
  }
}

void find_bug_needs(const ExploreSettings& settings, ExploreOutcome& outcome,
                    std::chrono::steady_clock::time_point started) {
  const auto stop = stop_at_limit(settings, started, kNeedsGrace);
  std::size_t left = 0;
  for (const auto& bug : outcome.bugs) {
    outcome.needs.emplace_back();
    if (!bug.has_trace()) continue;
    try {
      const auto replay = settings_to_replay(bug.trace, SubjectCommand{}, settings.session.run_timeout, "explore");
      const auto deadline = std::chrono::steady_clock::now() + kNeedsPerBug;
      auto needs = needs_of_bug(bug.trace, bug.signature, replay,
                                [&] { return stop() || std::chrono::steady_clock::now() >= deadline; });
      left += needs.unchecked.empty() ? 0 : 1;
      outcome.needs.back() = std::move(needs);
    } catch (const std::exception& error) {
      outcome.warnings.push_back(fmt::format("what bug {} needs was not found: {}", bug.number, error.what()));
    }
  }
  if (left != 0) {
    outcome.warnings.push_back(
        fmt::format("{} {} not checked for all {} need (\"not checked:\"): {} came first, or {} s of replays a bug",
                    left, left == 1 ? "bug was" : "bugs were", left == 1 ? "it may" : "they may", what_came_first(),
                    kNeedsPerBug.count()));
  }
}

}  // namespace exocheck::cli
