#include "sample_traces.hpp"

#include <initializer_list>
#include <string>
#include <utility>

namespace exocheck::cli_test {
namespace {

void set_clock(proto::Event& event, std::initializer_list<std::pair<const char*, unsigned>> entries) {
  for (const auto& [actor, count] : entries) {
    auto* entry = event.add_clock();
    entry->set_actor(actor);
    entry->set_count(count);
  }
}

void add_sent(proto::Event& event, const std::string& id, const std::string& receiver, const std::string& type) {
  auto* sent = event.add_sent();
  sent->set_id(id);
  sent->set_receiver(receiver);
  sent->set_type(type);
}

proto::Event delivery(unsigned step, const std::string& actor, const std::string& message, const std::string& sender,
                      const std::string& type, const std::string& summary) {
  proto::Event event;
  event.set_step(step);
  event.set_actor(actor);
  event.set_message(message);
  event.set_sender(sender);
  event.set_type(type);
  event.set_summary(summary);
  event.add_enabled(message);
  return event;
}

}  // namespace

proto::TraceFile sample_trace() {
  proto::TraceFile trace;
  trace.set_format_version(1);
  trace.set_tool_version("0.1.0");
  trace.set_protocol_version(1);
  trace.set_subject("./registry");
  trace.add_args("--workers");
  trace.add_args("1");
  trace.set_heuristic("fifo");
  trace.set_step_limit(100);

  auto& initial = *trace.add_events();
  initial.set_step(0);
  initial.set_actor("env");
  initial.set_sender("env");
  initial.add_created("0");
  add_sent(initial, "env#1", "0", "Start");

  auto& start = *trace.add_events() = delivery(1, "0", "env#1", "env", "Start", "Start{}");
  set_clock(start, {{"0", 1}});
  start.add_created("0.1");
  add_sent(start, "0#1", "0.1", "Register");

  auto& regist = *trace.add_events() = delivery(2, "0.1", "0#1", "0", "Register", "Register{worker=1}");
  set_clock(regist, {{"0", 1}, {"0.1", 1}});
  add_sent(regist, "0.1#1", "0", "Ack");

  auto& ack = *trace.add_events() = delivery(3, "0", "0.1#1", "0.1", "Ack", "Ack{}");
  set_clock(ack, {{"0", 2}, {"0.1", 1}});
  ack.set_destroyed(true);

  auto& result = *trace.mutable_result();
  result.set_status(proto::RUN_COMPLETED);
  result.set_steps(3);
  result.add_final_state("0.1: registered");
  return trace;
}

}  // namespace exocheck::cli_test
