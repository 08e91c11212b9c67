#include <string>

#include <nlohmann/json.hpp>

#include "exocheck/agent/markup.hpp"
#include "exocheck/agent/timeline.hpp"
#include "exocheck/agent/trace_pictures.hpp"
#include "space_time_page.hpp"

namespace exocheck::agent {
namespace {

using nlohmann::json;

std::string outcome_in_words(proto::StepOutcome outcome) {
  switch (outcome) {
    case proto::STEP_OK:
      return "ok";
    case proto::STEP_ASSERTION_FAILED:
      return "assertion failed";
    case proto::STEP_EXCEPTION:
      return "exception";
    case proto::STEP_CRASH:
      return "crash";
    default:
      return "outcome " + std::to_string(outcome);
  }
}

json event_data(const proto::Event& event) {
  json sent = json::array();
  for (const auto& message : event.sent()) {
    sent.push_back({{"id", message.id()}, {"receiver", message.receiver()}, {"type", message.type()}});
  }
  return {{"step", event.step()},
          {"actor", event.actor()},
          {"message", event.message()},
          {"sender", event.sender()},
          {"type", event.type()},
          {"summary", event.summary()},
          {"clock", format_clock(event.clock())},
          {"sent", sent},
          {"created", event.created()},
          {"destroyed", event.destroyed()},
          {"dead_letters", event.dead_letters()},
          {"reply", event.reply()},
          {"timer", firing_text(event)},
          {"choices", choices_text(event)},
          {"notified", notifications_text(event)},
          {"faults", faults_of(event)},
          {"failed", event.outcome() != proto::STEP_OK},
          {"outcome", outcome_in_words(event.outcome())},
          {"detail", event.detail()}};
}

/// JSON inside a <script> element: "</" would end the element early.
std::string script_safe(std::string text) {
  for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3)) {
    text.replace(at, 2, "<\\/");
  }
  return text;
}

void replace_once(std::string& page, const std::string& placeholder, const std::string& with) {
  page.replace(page.find(placeholder), placeholder.size(), with);
}

}  // namespace

std::string space_time_html(const proto::TraceFile& trace) {
  json events = json::array();
  for (const auto& event : trace.events()) events.push_back(event_data(event));
  json types = json::object();
  for (const auto& event : trace.events()) {
    for (const auto& type : event.actor_types()) types[type.actor()] = type.type();
  }
  const json data = {{"subject", trace.subject()},
                     {"args", trace.args()},
                     {"status", proto::RunStatus_Name(trace.result().status())},
                     {"status_words", status_in_words(trace.result().status())},
                     {"detail", trace.result().detail()},
                     {"bad", trace.result().status() != proto::RUN_COMPLETED},
                     {"types", types},
                     {"events", events}};
  std::string page = kSpaceTimePage;
  replace_once(page, "@TITLE@", markup_escaped("exocheck trace: " + trace.subject()));
  replace_once(page, "@TRACE_DATA@", script_safe(data.dump(-1, ' ', false, json::error_handler_t::replace)));
  return page;
}

}  // namespace exocheck::agent
