#include "junit_report.hpp"

#include <unistd.h>

#include <array>
#include <filesystem>

#include <fmt/format.h>

#include "exocheck/agent/markup.hpp"
#include "exocheck/agent/timeline.hpp"
#include "exocheck/endings/verdict.hpp"
#include "explore_report.hpp"
#include "proto/trace.pb.h"

namespace exocheck::cli {
namespace {

/// A check and the run statuses that fail it.
struct Check {
  const char* name;
  std::array<proto::RunStatus, 2> statuses;
};

constexpr Check kChecks[] = {
    {"no assertion fails", {proto::RUN_ASSERTION_FAILED, proto::RUN_ASSERTION_FAILED}},
    {"no handler throws", {proto::RUN_EXCEPTION, proto::RUN_EXCEPTION}},
    {"no deadlock", {proto::RUN_DEADLOCK, proto::RUN_DEADLOCK}},
    {"no crash or hang", {proto::RUN_CRASH, proto::RUN_HANG}},
    {"every run ends within the step limit", {proto::RUN_STEP_LIMIT, proto::RUN_STEP_LIMIT}},
    {"no monitor stays hot (liveness)", {proto::RUN_LIVENESS, proto::RUN_LIVENESS}},
    {"every run reports its result", {proto::RUN_EXIT_WITHOUT_RESULT, proto::RUN_PROTOCOL_ERROR}},
    {"runs replay their prefix (no nondeterminism outside the scheduler)",
     {proto::RUN_DIVERGENCE, proto::RUN_DIVERGENCE}},
};

std::string subject_name(const ExploreSettings& settings) {
  std::string name = std::filesystem::path(settings.session.subject).filename().string();
  for (const auto& arg : settings.session.args) name += " " + arg;
  return name;
}

std::string failure_of(const coordinator::Bug& bug, const std::string& trace_path,
                       const std::optional<BugNeeds>& needs) {
  const std::string replay = trace_path.empty() ? "(trace not saved)" : "exocheck replay " + trace_path;
  return fmt::format(
      "      <failure type=\"{}\" message=\"{}\">bug {}: {}&#10;{}&#10;run: {}&#10;{}replay: {}</failure>\n",
      proto::RunStatus_Name(bug.status), agent::markup_escaped(bug_headline(bug)), bug.number,
      agent::markup_escaped(bug_headline(bug)), agent::markup_escaped(bug_counts(bug)),
      agent::markup_escaped(bug.detail), needs ? agent::markup_escaped(needs_text(*needs)) + "&#10;" : "",
      agent::markup_escaped(replay));
}

std::string hostname() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? name : "localhost";
}

}  // namespace

std::string junit_xml(const ExploreSettings& settings, const ExploreOutcome& outcome) {
  const std::string suite = subject_name(settings);
  const std::string classname = "exocheck." + std::filesystem::path(settings.session.subject).filename().string();
  std::vector<const Check*> checks;
  for (const auto& check : kChecks) checks.push_back(&check);
  const bool determinism = settings.session.explorer.checks.determinism;
  const bool complete = explored_completely(outcome);

  std::string cases;
  std::size_t tests = 0, failures = 0, skipped = 0;
  auto add_case = [&](const std::string& name, const std::vector<std::size_t>& bugs) {
    ++tests;
    cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", agent::markup_escaped(classname),
                         agent::markup_escaped(name), outcome.wall_seconds);
    if (bugs.empty() && complete) {
      cases += "/>\n";
      return;
    }
    cases += ">\n";
    if (bugs.empty()) {
      ++skipped;
      cases += fmt::format("      <skipped message=\"{}\"/>\n",
                           agent::markup_escaped("the exploration stopped before the end: " +
                                                 std::string(endings::row_of(outcome.verdict).word)));
    }
    if (!bugs.empty()) ++failures;
    for (std::size_t i : bugs) {
      cases += failure_of(outcome.bugs[i], i < outcome.trace_paths.size() ? outcome.trace_paths[i] : "",
                          i < outcome.needs.size() ? outcome.needs[i] : std::nullopt);
    }
    cases += "    </testcase>\n";
  };
  for (const auto* check : checks) {
    std::vector<std::size_t> bugs;
    for (std::size_t i = 0; i < outcome.bugs.size(); ++i) {
      if (outcome.bugs[i].status == check->statuses[0] || outcome.bugs[i].status == check->statuses[1])
        bugs.push_back(i);
    }
    add_case(check->name, bugs);
  }
  if (determinism) {
    std::vector<std::size_t> bugs;
    for (std::size_t i = 0; i < outcome.bugs.size(); ++i) {
      if (outcome.bugs[i].status == proto::RUN_NONDETERMINISTIC) bugs.push_back(i);
    }
    add_case("every completed path ends in the same final state", bugs);
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"exocheck explore\" tests=\"{0}\" failures=\"{1}\" errors=\"0\" skipped=\"{2}\" "
      "time=\"{3:.3f}\">\n"
      "  <testsuite name=\"{4}\" tests=\"{0}\" failures=\"{1}\" errors=\"0\" skipped=\"{2}\" time=\"{3:.3f}\" "
      "timestamp=\"{5}\" hostname=\"{6}\">\n"
      "    <properties>\n"
      "      <property name=\"summary\" value=\"{7}\"/>\n"
      "    </properties>\n"
      "{8}"
      "  </testsuite>\n"
      "</testsuites>\n",
      tests, failures, skipped, outcome.wall_seconds, agent::markup_escaped(suite),
      agent::markup_escaped(settings.started_at), agent::markup_escaped(hostname()),
      agent::markup_escaped(summary_line(outcome)), cases);
}

}  // namespace exocheck::cli
