// libFuzzer target: a trace file from anywhere (a colleague's, a CI artifact, a damaged disk), as
// `exocheck trace show/view/export/diff` and `shrink` read it. A file that does not parse, or that
// the tools reject with an exception, is fine; a crash, a hang or a sanitizer report is not.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "exocheck/agent/schedule_shrinker.hpp"
#include "exocheck/agent/timeline.hpp"
#include "exocheck/agent/trace_diff.hpp"
#include "exocheck/agent/trace_pictures.hpp"
#include "exocheck/wire/trace_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace exocheck;
  proto::TraceFile trace;
  try {
    trace = wire::parse_trace_file(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz input");
  } catch (const std::exception&) {
    return 0;  // refused with a reason: what the tools do
  }
  try {
    (void)agent::format_timeline(trace);
    (void)agent::space_time_html(trace);
    (void)agent::shiviz_log(trace);
    (void)agent::chrome_trace_json(trace);
    (void)agent::graphviz_dot(trace);
    const auto difference = agent::diff_traces(trace, trace);
    (void)agent::format_difference(trace, trace, difference);
    (void)agent::difference_json(trace, trace, difference).dump();
    (void)agent::schedule_of_trace(trace);
    if (const auto failed = agent::failed_step(trace)) (void)agent::causal_past(trace, *failed);
  } catch (const std::exception&) {
    // An inconsistent trace may be refused by a tool with an exception, which the CLI reports.
  }
  return 0;
}
