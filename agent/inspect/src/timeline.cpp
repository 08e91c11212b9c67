#include "exocheck/agent/timeline.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

#include "exocheck/endings/run_ending.hpp"
#include "exocheck/options/delivery.hpp"

namespace exocheck::agent {
namespace {

// Summaries can be long (arrays, strings); aligning on the longest would push every clock far
// right, so the column stops growing here and a longer summary just shifts its own line.
constexpr std::size_t kMaxSummaryColumn = 40;

template <typename Range, typename Format>
std::string join(const Range& items, std::string_view separator, Format format) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += format(item);
  }
  return out;
}

std::string identity(const std::string& text) {
  return text;
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string right_aligned(const std::string& text, std::size_t width) {
  return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

}  // namespace

std::string duration_text(std::uint64_t ns) {
  const auto in = [ns](double unit, const char* name) {
    const double value = static_cast<double>(ns) / unit;
    char text[32];
    std::snprintf(text, sizeof text, "%.4g %s", value, name);
    return std::string(text);
  };
  if (ns >= 1'000'000'000) return in(1e9, "s");
  if (ns >= 1'000'000) return in(1e6, "ms");
  if (ns >= 1'000) return in(1e3, "us");
  return std::to_string(ns) + " ns";
}

namespace {

std::string format_sent(const proto::SentMessage& sent) {
  std::string text = sent.id() + " " + sent.type() + " to " + sent.receiver();
  switch (sent.timer()) {
    case proto::TIMER_ONCE:
      return text + " (timer, after " + duration_text(sent.delay_ns()) + ")";
    case proto::TIMER_PERIODIC:
      return text + " (timer, every " + duration_text(sent.delay_ns()) + ")";
    case proto::TIMER_CALL_TIMEOUT:
      return text + " (call timeout, after " + duration_text(sent.delay_ns()) + ")";
    default:
      return sent.duplicate_of().empty() ? text : text + " (the network's copy of " + sent.duplicate_of() + ")";
  }
}

std::string outcome_marker(const proto::Event& event) {
  switch (event.outcome()) {
    case proto::STEP_OK:
      return "";
    case proto::STEP_ASSERTION_FAILED:
      return "!! assertion failed: " + event.detail();
    case proto::STEP_EXCEPTION:
      return "!! exception: " + event.detail();
    case proto::STEP_CRASH:
      return "!! crash" + (event.detail().empty() ? std::string() : ": " + event.detail());
    default:
      return "!! outcome " + std::to_string(event.outcome());
  }
}

/// "created 0.1 (Worker), 0.2 (Worker)": with each actor's type where the trace names it.
std::string created_text(const proto::Event& event) {
  return "created " + join(event.created(), ", ", [&](const std::string& actor) {
           for (const auto& type : event.actor_types()) {
             if (type.actor() == actor) return actor + " (" + type.type() + ")";
           }
           return actor;
         });
}

/// What a step did besides receiving: sends, creations, and the markers people look for.
std::string effects_of(const proto::Event& event) {
  std::vector<std::string> parts;
  if (!event.sent().empty())
    parts.push_back(join(event.sent(), ", ", [](const auto& s) { return "-> " + format_sent(s); }));
  if (!event.created().empty()) parts.push_back(created_text(event));
  if (event.crashed()) {
    parts.push_back(event.restarted() ? "[crashed, restarted]" : "[crashed]");
  } else if (event.destroyed()) {
    parts.push_back("[destroyed]");
  }
  if (!event.dead_letters().empty())
    parts.push_back("[dead letters: " + join(event.dead_letters(), ", ", identity) + "]");
  // What a fault lost is cancelled too (withdrawn in this step); said once, as lost.
  std::vector<std::string> withdrawn;
  for (const auto& id : event.cancelled()) {
    if (std::find(event.lost().begin(), event.lost().end(), id) == event.lost().end()) withdrawn.push_back(id);
  }
  if (!withdrawn.empty()) parts.push_back("[cancelled: " + join(withdrawn, ", ", identity) + "]");
  if (!event.lost().empty()) parts.push_back("[lost: " + join(event.lost(), ", ", identity) + "]");
  for (const auto& change : link_changes(event)) parts.push_back("[" + change + "]");
  if (const auto firing = firing_text(event); !firing.empty()) parts.push_back("[" + firing + "]");
  if (const auto choices = choices_text(event); !choices.empty()) parts.push_back("[" + choices + "]");
  if (const auto notified = notifications_text(event); !notified.empty()) parts.push_back("[" + notified + "]");
  if (const auto marker = outcome_marker(event); !marker.empty()) parts.push_back(marker);
  return join(parts, "; ", identity);
}

std::string initial_step_text(const proto::Event& event) {
  std::vector<std::string> parts;
  if (!event.created().empty()) parts.push_back(created_text(event));
  if (!event.sent().empty()) parts.push_back("sent " + join(event.sent(), ", ", format_sent));
  if (const auto marker = outcome_marker(event); !marker.empty()) parts.push_back(marker);
  return "main: " + (parts.empty() ? std::string("nothing") : join(parts, "; ", identity));
}

/// The cells of one step line, before alignment.
using Row = std::array<std::string, 7>;
constexpr std::size_t kSummaryColumn = 4;
constexpr std::size_t kEffectsColumn = 6;

Row row_of(const proto::Event& event) {
  return {std::to_string(event.step()), event.actor(),    event.message(), event.sender(), event.summary(),
          format_clock(event.clock()),  effects_of(event)};
}

std::string format_row(const Row& row, const std::array<std::size_t, 7>& widths) {
  std::string line = right_aligned(row[0], widths[0]);
  for (std::size_t column = 1; column < kEffectsColumn; ++column) line += "  " + padded(row[column], widths[column]);
  if (!row[kEffectsColumn].empty()) line += "  " + row[kEffectsColumn];
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
}

std::string format_steps(const proto::TraceFile& trace) {
  const Row heading = {"step", "actor", "message", "sender", "summary", "clock", "effects"};
  std::vector<Row> rows;
  std::array<std::size_t, 7> widths{};
  for (std::size_t column = 0; column < widths.size(); ++column) widths[column] = heading[column].size();
  for (const auto& event : trace.events()) {
    if (event.step() == 0) continue;
    rows.push_back(row_of(event));
    for (std::size_t column = 0; column < kEffectsColumn; ++column) {
      widths[column] = std::max(widths[column], rows.back()[column].size());
    }
  }
  widths[kSummaryColumn] =
      std::min(widths[kSummaryColumn], std::max(kMaxSummaryColumn, heading[kSummaryColumn].size()));
  std::string out = format_row(heading, widths);
  for (const auto& event : trace.events()) {
    if (event.step() == 0) out += right_aligned("0", widths[0]) + "  " + initial_step_text(event) + "\n";
  }
  for (const auto& row : rows) out += format_row(row, widths);
  return out;
}

std::string format_header(const proto::TraceFile& trace) {
  std::string subject = trace.subject();
  for (const auto& arg : trace.args()) subject += " " + arg;
  const std::string prefix = trace.prefix().empty() ? "(none)" : join(trace.prefix(), ",", identity);
  const std::string limit = trace.step_limit() == 0 ? "none" : std::to_string(trace.step_limit());
  std::string out = "Subject: " + subject + "\n";
  // Unordered delivery, the default, goes unsaid, as in traces recorded before there was a choice.
  const auto* delivery = options::row_on_wire(options::kDeliveries, trace.delivery());
  const std::string order = trace.delivery() == proto::DELIVERY_UNORDERED ? std::string()
                            : delivery != nullptr                         ? ", delivery " + std::string(delivery->name)
                                                  : ", delivery " + std::to_string(trace.delivery());
  const std::string timers = trace.timers() == proto::TIMERS_QUIESCENT ? ", timers quiescent" : "";
  out += "Options: heuristic " + (trace.heuristic().empty() ? std::string("?") : trace.heuristic()) + order + timers +
         ", step limit " + limit + ", prefix " + prefix + "\n";
  if (!trace.ranking().empty()) out += "Ranking: " + join(trace.ranking(), ", ", identity) + "\n";
  if (const auto faults = faults_text(trace.faults()); !faults.empty()) out += "Faults: " + faults + "\n";
  out += "Recorded by: exocheck " + trace.tool_version() + ", protocol " + std::to_string(trace.protocol_version()) +
         ", trace format " + std::to_string(trace.format_version()) + "\n";
  if (trace.recorded()) {
    out +=
        "Recorded from: a free run (exocheck record): each step's delivery, choices and outcome, in the order "
        "the steps began\n";
  }
  return out;
}

std::string detail_line(std::string_view label, const std::string& text) {
  return "  " + padded(label.empty() ? std::string() : std::string(label) + ":", 14) + text + "\n";
}

std::string format_blocked(const proto::BlockedActor& blocked) {
  return blocked.waiting_for().empty() ? blocked.actor() + " (never ends, and main awaits it)"
                                       : blocked.actor() + " (waiting for the reply to " + blocked.waiting_for() + ")";
}

std::string format_pending(const proto::PendingMessage& pending) {
  return pending.id() + " " + pending.type() + " to " + pending.receiver() +
         (pending.receiver_destroyed() ? " (receiver destroyed)" : "");
}

/// Several lines under one label, the label on the first only.
std::string detail_lines(std::string_view label, const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += detail_line(i == 0 ? label : "", lines[i]);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string format_result(const proto::RunResult& result) {
  std::string out = "Result: " + status_in_words(result.status()) + " (" + proto::RunStatus_Name(result.status()) +
                    ") after " + std::to_string(result.steps()) + (result.steps() == 1 ? " step\n" : " steps\n");
  if (!result.detail().empty()) out += detail_line("detail", result.detail());
  if (!result.blocked().empty()) out += detail_line("blocked", join(result.blocked(), ", ", format_blocked));
  if (!result.pending().empty()) out += detail_line("pending", join(result.pending(), ", ", format_pending));
  if (result.status() == proto::RUN_DIVERGENCE) {
    const std::string enabled =
        result.divergence_enabled().empty() ? "nothing" : join(result.divergence_enabled(), ", ", identity);
    out += detail_line("divergence", "prefix position " + std::to_string(result.divergence_index()) + " named " +
                                         result.divergence_expected() + ", enabled instead: " + enabled);
  }
  if (!result.dead_letters().empty()) {
    out += detail_line("warning", "dead letters: " + join(result.dead_letters(), ", ", identity));
  }
  if (result.signal() != 0) out += detail_line("signal", std::to_string(result.signal()));
  if (result.exit_code() != 0) out += detail_line("exit code", std::to_string(result.exit_code()));
  out += detail_lines("stderr", lines_of(result.stderr_tail()));
  out += detail_lines("final state", {result.final_state().begin(), result.final_state().end()});
  return out;
}

}  // namespace

std::string format_clock(const google::protobuf::RepeatedPtrField<proto::ClockEntry>& clock) {
  return "{" +
         join(clock, ", ", [](const auto& entry) { return entry.actor() + ":" + std::to_string(entry.count()); }) + "}";
}

std::string status_in_words(proto::RunStatus status) {
  return endings::words_of(status);
}

std::string firing_text(const proto::Event& event) {
  return event.timer() == proto::NOT_A_TIMER ? std::string() : "timer fired at " + duration_text(event.time_ns());
}

std::string choices_text(const proto::Event& event) {
  // The handler's choices; a fault's are said by what they did (crashed, lost), or not at all.
  std::vector<const proto::Choice*> made;
  for (const auto& choice : event.choices()) {
    if (!choice.fault_choice()) made.push_back(&choice);
  }
  if (made.empty()) return "";
  return "chose " + join(made, ", then ", [](const proto::Choice* c) {
           return std::to_string(c->value()) + " of " + std::to_string(c->range());
         });
}

std::string notifications_text(const proto::Event& event) {
  if (event.notifications().empty()) return "";
  return "notified " + join(event.notifications(), ", then ",
                            [](const proto::Notification& n) { return n.monitor() + ": " + n.event(); });
}

std::vector<std::string> link_changes(const proto::Event& event) {
  std::vector<std::string> changes;
  for (const auto& choice : event.choices()) {
    if (choice.fault() == proto::FAULT_PARTITION && choice.value() == 1) {
      changes.push_back("link cut at " + choice.message());
    } else if (choice.fault() == proto::FAULT_HEAL) {
      changes.push_back("link healed at " + choice.message());
    }
  }
  return changes;
}

std::string faults_of(const proto::Event& event) {
  std::vector<std::string> parts;
  if (event.crashed()) parts.push_back(event.restarted() ? "crashed, restarted" : "crashed");
  for (const auto& id : event.lost()) parts.push_back("lost " + id);
  for (auto& change : link_changes(event)) parts.push_back(std::move(change));
  for (const auto& sent : event.sent()) {
    if (!sent.duplicate_of().empty()) parts.push_back(sent.duplicate_of() + " sent twice");
  }
  return join(parts, ", ", identity);
}

std::string faults_text(const proto::FaultBudget& faults) {
  std::vector<std::string> parts;
  const auto types = [](const auto& names) {
    return names.empty() ? std::string() : " (" + join(names, ", ", identity) + ")";
  };
  if (faults.crashes() != 0) {
    parts.push_back(
        "crash " + std::to_string(faults.crashes()) + types(faults.crash_types()) +
        (faults.crash_actors().empty() ? "" : " (actors " + join(faults.crash_actors(), ", ", identity) + ")"));
  }
  if (faults.losses() != 0) parts.push_back("lose " + std::to_string(faults.losses()));
  if (faults.duplicates() != 0) parts.push_back("duplicate " + std::to_string(faults.duplicates()));
  if (faults.partitions() != 0) {
    parts.push_back("partition " + std::to_string(faults.partitions()) +
                    (faults.partition_side().empty()
                         ? " (each link)"
                         : " (side " + join(faults.partition_side(), ", ", identity) + ")"));
  }
  if ((faults.losses() != 0 || faults.duplicates() != 0 || faults.partitions() != 0) && !faults.lossy_types().empty()) {
    parts.push_back("lossy types " + join(faults.lossy_types(), ", ", identity));
  }
  return parts.empty() ? std::string() : join(parts, ", ", identity) + " per actor and run";
}

std::string format_timeline(const proto::TraceFile& trace) {
  return format_header(trace) + "\n" + format_steps(trace) + "\n" + format_result(trace.result());
}

}  // namespace exocheck::agent
