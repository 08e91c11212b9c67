#include "trace_output.hpp"

#include <google/protobuf/util/json_util.h>

#include <iostream>
#include <stdexcept>

#include "exit_status.hpp"
#include "exocheck/agent/timeline.hpp"

namespace exocheck::cli {

std::string trace_as_json(const proto::TraceFile& trace) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  options.preserve_proto_field_names = true;
  std::string json;
  const auto status = google::protobuf::util::MessageToJsonString(trace, &json, options);
  if (!status.ok()) throw std::runtime_error("cannot print the trace as JSON: " + status.ToString());
  return json;
}

void print_trace(const proto::TraceFile& trace, bool json) {
  if (json) {
    const auto text = trace_as_json(trace);
    std::cout << text << (text.ends_with('\n') ? "" : "\n");
  } else {
    std::cout << agent::format_timeline(trace);
  }
  std::cout.flush();
}

int exit_status_of(const proto::RunResult& result) {
  switch (result.status()) {
    case proto::RUN_COMPLETED:
      return kNoBug;
    case proto::RUN_STEP_LIMIT:  // the run did not end: bounded, not a bug by itself
      return kStoppedByLimit;
    default:
      return kBug;
  }
}

}  // namespace exocheck::cli
