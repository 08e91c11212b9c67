#include "record_junit.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "exocheck/agent/markup.hpp"

namespace exocheck::cli {

std::string recorded_run_junit(const proto::TraceFile& trace, const std::string& saved, double seconds) {
  std::string name = std::filesystem::path(trace.subject()).filename().string();
  for (const auto& arg : trace.args()) name += " " + arg;
  const auto& result = trace.result();
  const bool failed = result.status() != proto::RUN_COMPLETED;
  std::string body;
  if (failed) {
    const std::string replay = saved.empty() ? "(trace not saved)" : "exocheck replay " + saved;
    body = fmt::format("      <failure type=\"{}\" message=\"{}\">{}&#10;steps recorded: {}&#10;replay: {}</failure>\n",
                       proto::RunStatus_Name(result.status()), agent::markup_escaped(result.detail()),
                       agent::markup_escaped(result.detail()), result.steps(), agent::markup_escaped(replay));
  }
  const std::string testcase =
      fmt::format("    <testcase classname=\"exocheck.record\" name=\"{}\" time=\"{:.3f}\"{}",
                  agent::markup_escaped(name), seconds, failed ? ">\n" + body + "    </testcase>\n" : "/>\n");
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"exocheck record\" tests=\"1\" failures=\"{0}\" errors=\"0\" skipped=\"0\" time=\"{1:.3f}\">\n"
      "  <testsuite name=\"{2}\" tests=\"1\" failures=\"{0}\" errors=\"0\" skipped=\"0\" time=\"{1:.3f}\">\n"
      "{3}"
      "  </testsuite>\n"
      "</testsuites>\n",
      failed ? 1 : 0, seconds, agent::markup_escaped(name), testcase);
}

}  // namespace exocheck::cli
