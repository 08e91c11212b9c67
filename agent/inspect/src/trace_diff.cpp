#include "exocheck/agent/trace_diff.hpp"

#include <map>

#include <fmt/format.h>

#include "exocheck/agent/timeline.hpp"
#include "exocheck/wire/delivery_label.hpp"

namespace exocheck::agent {
namespace {

std::uint32_t steps_of(const proto::TraceFile& trace) {
  return trace.events_size() > 0 ? static_cast<std::uint32_t>(trace.events_size() - 1) : 0;
}

/// message id -> the event that delivered it, from step `from` on.
std::map<std::string, const proto::Event*> deliveries_from(const proto::TraceFile& trace, std::uint32_t from) {
  std::map<std::string, const proto::Event*> delivered;
  for (const auto& event : trace.events()) {
    if (event.step() >= from && event.step() > 0) delivered.emplace(wire::label_of(event), &event);
  }
  return delivered;
}

std::string delivery_text(const TraceDifference::Delivery& d) {
  return fmt::format("{} ({}) to {}", d.message, d.type, d.receiver);
}

std::string ending(const proto::TraceFile& trace) {
  return fmt::format("{} after {} steps ({})", status_in_words(trace.result().status()), steps_of(trace),
                     trace.result().detail());
}

nlohmann::ordered_json deliveries_json(const std::vector<TraceDifference::Delivery>& deliveries) {
  auto list = nlohmann::ordered_json::array();
  for (const auto& d : deliveries) {
    list.push_back(
        {{"message", d.message},
         {"receiver", d.receiver},
         {"type", d.type},
         {"step_in_a", d.step_in_a == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(d.step_in_a)},
         {"step_in_b", d.step_in_b == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(d.step_in_b)}});
  }
  return list;
}

nlohmann::ordered_json run_json(const proto::TraceFile& trace) {
  return {{"subject", trace.subject()},
          {"steps", steps_of(trace)},
          {"status", proto::RunStatus_Name(trace.result().status())},
          {"detail", trace.result().detail()}};
}

}  // namespace

TraceDifference diff_traces(const proto::TraceFile& a, const proto::TraceFile& b) {
  TraceDifference difference;
  difference.same_result = a.result().status() == b.result().status() && a.result().detail() == b.result().detail();
  const std::uint32_t common = std::min(steps_of(a), steps_of(b));
  std::uint32_t step = 1;
  while (step <= common &&
         wire::label_of(a.events(static_cast<int>(step))) == wire::label_of(b.events(static_cast<int>(step)))) {
    ++step;
  }
  difference.same_steps = step - 1;
  if (step > common && steps_of(a) == steps_of(b)) return difference;
  difference.parted_at = step;
  const auto in_a = deliveries_from(a, step), in_b = deliveries_from(b, step);
  for (const auto& [message, event] : in_a) {
    TraceDifference::Delivery d{message, event->actor(), event->type(), event->step(), 0};
    if (auto other = in_b.find(message); other != in_b.end()) {
      d.step_in_b = other->second->step();
      difference.elsewhere.push_back(d);
    } else {
      difference.only_in_a.push_back(d);
    }
  }
  for (const auto& [message, event] : in_b) {
    if (in_a.count(message) == 0)
      difference.only_in_b.push_back({message, event->actor(), event->type(), 0, event->step()});
  }
  auto by_step = [](auto key) {
    return [key](const TraceDifference::Delivery& x, const TraceDifference::Delivery& y) { return x.*key < y.*key; };
  };
  std::sort(difference.only_in_a.begin(), difference.only_in_a.end(), by_step(&TraceDifference::Delivery::step_in_a));
  std::sort(difference.only_in_b.begin(), difference.only_in_b.end(), by_step(&TraceDifference::Delivery::step_in_b));
  std::sort(difference.elsewhere.begin(), difference.elsewhere.end(), by_step(&TraceDifference::Delivery::step_in_a));
  return difference;
}

std::string format_difference(const proto::TraceFile& a, const proto::TraceFile& b, const TraceDifference& difference) {
  std::string text = fmt::format("A: {}\nB: {}\n", ending(a), ending(b));
  if (a.subject() != b.subject() || std::vector<std::string>(a.args().begin(), a.args().end()) !=
                                        std::vector<std::string>(b.args().begin(), b.args().end())) {
    text += "note: the traces are of different programs or arguments\n";
  }
  if (!difference.parted_at) {
    text += fmt::format("Same schedule: all {} steps deliver the same messages with the same choices; {}.\n",
                        difference.same_steps, difference.same_result ? "same result" : "different results");
    return text;
  }
  const std::uint32_t at = *difference.parted_at;
  text += fmt::format("The first {} steps are the same. They part at step {}: ", difference.same_steps, at);
  auto at_step = [&](const proto::TraceFile& trace, const char* name) {
    if (at >= static_cast<std::uint32_t>(trace.events_size())) return fmt::format("{} has ended", name);
    const auto& event = trace.events(static_cast<int>(at));
    return fmt::format("{} delivers {} ({}) to {}", name, wire::label_of(event), event.type(), event.actor());
  };
  text += at_step(a, "A") + ", " + at_step(b, "B") + ".\n";
  auto list = [&](const char* title, const std::vector<TraceDifference::Delivery>& deliveries, auto where) {
    if (deliveries.empty()) return;
    text += fmt::format("{} ({}):\n", title, deliveries.size());
    for (const auto& d : deliveries) text += "  " + where(d) + delivery_text(d) + "\n";
  };
  list("Only in A", difference.only_in_a, [](const auto& d) { return fmt::format("step {}: ", d.step_in_a); });
  list("Only in B", difference.only_in_b, [](const auto& d) { return fmt::format("step {}: ", d.step_in_b); });
  list("In both, at other steps", difference.elsewhere,
       [](const auto& d) { return fmt::format("A step {}, B step {}: ", d.step_in_a, d.step_in_b); });
  return text;
}

nlohmann::ordered_json difference_json(const proto::TraceFile& a, const proto::TraceFile& b,
                                       const TraceDifference& difference) {
  return {{"a", run_json(a)},
          {"b", run_json(b)},
          {"same_steps", difference.same_steps},
          {"parted_at",
           difference.parted_at ? nlohmann::ordered_json(*difference.parted_at) : nlohmann::ordered_json(nullptr)},
          {"only_in_a", deliveries_json(difference.only_in_a)},
          {"only_in_b", deliveries_json(difference.only_in_b)},
          {"elsewhere", deliveries_json(difference.elsewhere)},
          {"same_result", difference.same_result}};
}

}  // namespace exocheck::agent
