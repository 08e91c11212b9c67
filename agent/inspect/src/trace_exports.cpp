#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exocheck/agent/timeline.hpp"
#include "exocheck/agent/trace_pictures.hpp"
#include "trace_lanes.hpp"

namespace exocheck::agent {
namespace {

using nlohmann::json;

/// One line: newlines and tabs of summaries and details become spaces.
std::string one_line(std::string text) {
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return text;
}

std::string what_happened(const proto::Event& event) {
  if (event.step() == 0) return "step 0: main starts the program";
  std::string text = fmt::format("step {}: {} receives {} {} from {}", event.step(), event.actor(), event.message(),
                                 event.summary(), event.sender());
  for (const auto& words : {firing_text(event), choices_text(event)}) {
    if (!words.empty()) text += " (" + words + ")";
  }
  if (event.outcome() != proto::STEP_OK) text += " -- FAILED: " + event.detail();
  return one_line(std::move(text));
}

/// A clock as ShiViz reads it: every entry, the host's own included (main's step is main:1).
json shiviz_clock(const proto::Event& event) {
  json clock = json::object();
  if (event.step() == 0) clock[kMainLane] = 1;
  for (const auto& entry : event.clock()) clock[entry.actor()] = entry.count();
  return clock;
}

/// A dot string: quoted, with its own escapes; a newline breaks the label's line.
std::string dot_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\r' || c == '\t') c = ' ';
    out += c;
  }
  return out + "\"";
}

// Chrome trace events are in microseconds; each step gets this much room, its slice most of it.
constexpr int kStepMicros = 100;
constexpr int kSliceMicros = 80;

}  // namespace

std::string shiviz_log(const proto::TraceFile& trace) {
  const TraceLanes lanes = lanes_of(trace);
  std::string log;
  for (const auto& event : trace.events()) {
    log += fmt::format("{} {} {}\n", lanes.lanes[lane_of_event(lanes, event)], shiviz_clock(event).dump(),
                       what_happened(event));
  }
  return log;
}

std::string chrome_trace_json(const proto::TraceFile& trace) {
  const TraceLanes lanes = lanes_of(trace);
  json events = json::array();
  events.push_back(
      {{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "exocheck: " + trace.subject()}}}});
  for (std::size_t lane = 0; lane < lanes.lanes.size(); ++lane) {
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", 1},
                      {"tid", lane},
                      {"args", {{"name", lane_title(lanes, lane)}}}});
    events.push_back(
        {{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 1}, {"tid", lane}, {"args", {{"sort_index", lane}}}});
  }
  std::uint64_t flow = 0;
  for (const auto& event : trace.events()) {
    const std::size_t lane = lane_of_event(lanes, event);
    json args = {{"step", event.step()}, {"clock", format_clock(event.clock())}};
    if (event.step() != 0) {
      args["message"] = event.message();
      args["sender"] = event.sender();
      args["summary"] = event.summary();
      if (const auto firing = firing_text(event); !firing.empty()) args["timer"] = firing;
      if (const auto choices = choices_text(event); !choices.empty()) args["choices"] = choices;
    }
    if (event.outcome() != proto::STEP_OK) args["failed"] = event.detail();
    const std::string name = event.step() == 0 ? "main" : event.type();
    events.push_back({{"name", name},
                      {"cat", event.outcome() == proto::STEP_OK ? "delivery" : "delivery,failed"},
                      {"ph", "X"},
                      {"ts", event.step() * kStepMicros},
                      {"dur", kSliceMicros},
                      {"pid", 1},
                      {"tid", lane},
                      {"args", args}});
    if (event.step() == 0) continue;
    const auto sent = lanes.sent_at.find(event.message());
    if (sent == lanes.sent_at.end()) continue;
    const auto& sender = trace.events(static_cast<int>(sent->second));
    ++flow;
    // The flow starts inside the sending slice and ends at the start of the delivering one.
    events.push_back({{"name", event.message()},
                      {"cat", "message"},
                      {"ph", "s"},
                      {"id", flow},
                      {"pid", 1},
                      {"tid", lane_of_event(lanes, sender)},
                      {"ts", sent->second * kStepMicros + kSliceMicros / 2}});
    events.push_back({{"name", event.message()},
                      {"cat", "message"},
                      {"ph", "f"},
                      {"bp", "e"},
                      {"id", flow},
                      {"pid", 1},
                      {"tid", lane},
                      {"ts", event.step() * kStepMicros + 1}});
  }
  return json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump(1) + "\n";
}

std::string graphviz_dot(const proto::TraceFile& trace) {
  const TraceLanes lanes = lanes_of(trace);
  std::vector<std::vector<std::uint32_t>> steps_of(lanes.lanes.size());
  for (const auto& event : trace.events()) steps_of[lane_of_event(lanes, event)].push_back(event.step());
  std::string dot = "digraph trace {\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n";
  for (std::size_t lane = 0; lane < lanes.lanes.size(); ++lane) {
    dot += fmt::format("  subgraph cluster_{} {{\n    label={};\n", lane, dot_string(lane_title(lanes, lane)));
    for (std::uint32_t step : steps_of[lane]) {
      const auto& event = trace.events(static_cast<int>(step));
      const bool failed = event.outcome() != proto::STEP_OK;
      std::string label =
          step == 0 ? "step 0: main" : fmt::format("step {}: {}\n{}", step, event.message(), event.summary());
      for (const auto& words : {firing_text(event), choices_text(event)}) {
        if (!words.empty()) label += "\n" + words;
      }
      dot += fmt::format("    s{} [label={}{}];\n", step, dot_string(label), failed ? ", color=red, style=bold" : "");
    }
    for (std::size_t i = 1; i < steps_of[lane].size(); ++i) {
      dot += fmt::format("    s{} -> s{} [style=dotted, arrowhead=none];\n", steps_of[lane][i - 1], steps_of[lane][i]);
    }
    dot += "  }\n";
  }
  for (const auto& event : trace.events()) {
    if (event.step() == 0) continue;
    const auto sent = lanes.sent_at.find(event.message());
    if (sent == lanes.sent_at.end()) continue;
    dot += fmt::format("  s{} -> s{} [label={}];\n", sent->second, event.step(), dot_string(event.message()));
  }
  return dot + "}\n";
}

}  // namespace exocheck::agent
