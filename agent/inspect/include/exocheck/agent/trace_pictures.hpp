#pragma once
// A trace as pictures: a self-contained HTML space-time diagram, and the formats other viewers
// read (ShiViz's log, Chrome's trace events for Perfetto, Graphviz dot).

#include <string>

#include "proto/trace.pb.h"

namespace exocheck::agent {

/// One HTML page, no network and no external script: one lane per actor, a box per delivery, an
/// arrow from each send to its delivery, clocks on hover, the failing step marked; zoom and folding
/// of lanes for long traces.
std::string space_time_html(const proto::TraceFile& trace);

/// ShiViz's input: one line per event, `<host> <vector clock as JSON> <event>`, which
/// kShivizRegex parses. Main's step is host "main"; its sends are concurrent with everything, as
/// in the trace.
std::string shiviz_log(const proto::TraceFile& trace);
inline constexpr const char* kShivizRegex = R"(^(?<host>\S+) (?<clock>\{[^}]*\}) (?<event>.*)$)";

/// Chrome trace-event JSON (Perfetto, chrome://tracing): one thread per actor, a slice per
/// delivery, a flow from each send to its delivery.
std::string chrome_trace_json(const proto::TraceFile& trace);

/// Graphviz dot: a cluster per actor with its deliveries in order, an edge per message.
std::string graphviz_dot(const proto::TraceFile& trace);

}  // namespace exocheck::agent
