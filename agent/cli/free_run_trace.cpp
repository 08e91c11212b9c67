#include "free_run_trace.hpp"

#include <algorithm>
#include <charconv>
#include <csignal>
#include <cstring>
#include <map>
#include <optional>

#include "exocheck/options/bounds.hpp"
#include "exocheck/wire/free_run_log.hpp"
#include "exocheck/wire/trace_file.hpp"

namespace exocheck::cli {
namespace {

std::string unescaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char next = text[++i];
    out += next == 't' ? '\t' : next == 'n' ? '\n' : next;
  }
  return out;
}

std::vector<std::string> fields_of(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(unescaped(line.substr(start, tab == std::string_view::npos ? line.npos : tab - start)));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

// Digits only, and within 64 bits: a damaged log's longer number is no number (std::stoull threw
// on one, found by fuzz_free_run_log).
std::optional<std::uint64_t> number_of(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

proto::StepOutcome outcome_of(const std::string& word) {
  if (word == "assertion") return proto::STEP_ASSERTION_FAILED;
  if (word == "exception") return proto::STEP_EXCEPTION;
  return proto::STEP_OK;
}

void add_choices(const std::string& text, proto::Event& event) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string pair = text.substr(start, comma - start);
    const std::size_t slash = pair.find('/');
    const auto range = number_of(pair.substr(0, slash));
    const auto value = slash == std::string::npos ? std::nullopt : number_of(pair.substr(slash + 1));
    if (range && value) {
      auto* choice = event.add_choices();
      choice->set_range(static_cast<std::uint32_t>(*range));
      choice->set_value(static_cast<std::uint32_t>(*value));
    }
    start = comma + 1;
  }
}

/// A compact step's numbers (exocheck/wire/free_run_log.hpp).
struct CompactStep {
  std::uint64_t time = 0;
  std::uint64_t actor = 0;
  std::uint64_t sender = 0;  ///< its index plus one; 0: main
  std::uint64_t ordinal = 0;
  std::uint64_t type = 0;
};

/// Calls `on_line` with the fields of each text line of `log` and `on_compact` with each compact
/// step, in their order; stops at one the log's end tore (a crash's, a kill's).
template <typename OnLine, typename OnCompact>
void for_each_record(std::string_view log, OnLine on_line, OnCompact on_compact) {
  namespace format = wire::free_run_log;
  for (std::size_t start = 0; start < log.size();) {
    if (log[start] == format::kCompactStep) {
      std::size_t at = start + 1;
      CompactStep step;
      for (std::uint64_t* number : {&step.time, &step.actor, &step.sender, &step.ordinal, &step.type}) {
        if (!format::get_number(log, at, *number)) return;
      }
      start = at;
      on_compact(step);
      continue;
    }
    const std::size_t end = log.find('\n', start);
    if (end == std::string_view::npos) return;
    on_line(fields_of(log.substr(start, end - start)));
    start = end + 1;
  }
}

struct Parsed {
  /// By Lamport time, then the order the lines came in (steps of one time are concurrent).
  std::map<std::pair<std::uint64_t, std::size_t>, proto::Event> steps;
  std::map<std::string, proto::Event*> by_message;
  std::vector<std::string> deadlock;
  std::vector<std::string> command_line;
  std::string died_in;  ///< the message of the step the process died in (X)
  std::optional<std::pair<proto::StepOutcome, std::string>> failed_outside;  ///< the first F line
};

/// The sender of message `id` ("1.2#3" -> "1.2", "env#1" -> "env").
std::string sender_of(const std::string& id) {
  const auto hash = id.rfind('#');
  return hash == std::string::npos ? std::string() : id.substr(0, hash);
}

/// Adds the step at `time` of `actor` taking `message`; null when it names a step already read (a
/// step written twice by a crash's flush counts once).
proto::Event* add_step(Parsed& parsed, std::uint64_t time, const std::string& actor, const std::string& message,
                       const std::string& type, std::size_t order) {
  if (parsed.by_message.count(message) != 0) return nullptr;
  proto::Event& event = parsed.steps[{time, order}];
  event.set_actor(actor);
  event.set_message(message);
  event.set_sender(sender_of(message));
  event.set_type(type);
  event.set_summary(type);  // a free run records the type, not the fields
  parsed.by_message[message] = &event;
  return &event;
}

/// Adds the step a line "<kind> <time> <actor> <message> <type> ..." names; null when it is not one.
proto::Event* add_step(Parsed& parsed, const std::vector<std::string>& fields, std::size_t order) {
  const auto time = number_of(fields[1]);
  return time ? add_step(parsed, *time, fields[2], fields[3], fields[4], order) : nullptr;
}

/// What a compact step's indexes name, from the "A" and "T" lines before it.
struct Names {
  std::map<std::uint64_t, std::string> actors;
  std::map<std::uint64_t, std::string> types;

  /// False for a line that names nothing.
  bool read(const std::vector<std::string>& fields) {
    if (fields.size() != 3 || (fields[0] != "A" && fields[0] != "T")) return false;
    if (const auto index = number_of(fields[1])) (fields[0] == "A" ? actors : types)[*index] = fields[2];
    return true;
  }
  /// Whether every index of `step` was named before it (the hook names them first, in the same
  /// thread's buffer: one missing is a damaged log).
  bool name(const CompactStep& step) const {
    return actors.count(step.actor) != 0 && (step.sender == 0 || actors.count(step.sender - 1) != 0) &&
           types.count(step.type) != 0;
  }
};

Parsed parse(std::string_view log) {
  Parsed parsed;
  Names names;
  std::size_t order = 0;
  const auto on_compact = [&](const CompactStep& step) {
    if (!names.name(step)) return;  // unreplayable_constructs() refuses such a log
    const std::string sender_id =
        step.sender == 0 ? std::string(wire::free_run_log::kMainSender) : names.actors.at(step.sender - 1);
    add_step(parsed, step.time, names.actors.at(step.actor), sender_id + "#" + std::to_string(step.ordinal),
             names.types.at(step.type), order++);
  };
  const auto on_line = [&](const std::vector<std::string>& fields) {
    const std::string& kind = fields[0];
    if (names.read(fields)) return;
    if (kind == "S" && fields.size() == 8) {
      if (proto::Event* step = add_step(parsed, fields, order++)) {
        step->set_outcome(outcome_of(fields[5]));
        add_choices(fields[6], *step);
        step->set_detail(fields[7]);
      }
    } else if ((kind == "X" || kind == "I") && fields.size() == 5) {
      if (add_step(parsed, fields, order++) != nullptr && kind == "X") parsed.died_in = fields[3];
    } else if (kind == "F" && fields.size() == 3 && !parsed.failed_outside) {
      parsed.failed_outside.emplace(outcome_of(fields[1]), fields[2]);
    } else if (kind == "D" && fields.size() == 2) {
      parsed.deadlock.push_back(fields[1]);
    } else if (kind == "P" && fields.size() > 1 && parsed.command_line.empty()) {
      parsed.command_line.assign(fields.begin() + 1, fields.end());
    }
  };
  for_each_record(log, on_line, on_compact);
  return parsed;
}

std::string signal_text(int signal) {
  if (const char* abbreviation = ::sigabbrev_np(signal)) return std::string("SIG") + abbreviation;
  return "signal " + std::to_string(signal);
}

std::string at_step(const proto::Event& event) {
  return "actor " + event.actor() + " handling " + event.message() + " (" + event.type() + ") at step " +
         std::to_string(event.step());
}

/// The run's result: the first failed step's (the run went on after it, as under control), else a
/// step the process died in, else a deadlock, else how the process ended.
proto::RunResult result_of(const proto::TraceFile& trace, const Parsed& parsed, const ProcessEnd& end,
                           const proto::Event* unfinished) {
  proto::RunResult result;
  result.set_steps(static_cast<std::uint32_t>(trace.events_size() - 1));
  result.set_signal(end.signal);
  result.set_exit_code(end.exit_code);
  for (const auto& event : trace.events()) {
    if (event.outcome() == proto::STEP_OK) continue;
    const bool assertion = event.outcome() == proto::STEP_ASSERTION_FAILED;
    result.set_status(assertion ? proto::RUN_ASSERTION_FAILED : proto::RUN_EXCEPTION);
    result.set_detail((assertion ? "assertion failed in " : "uncaught exception in ") + at_step(event) + ": " +
                      event.detail());
    return result;
  }
  if (parsed.failed_outside) {
    const bool assertion = parsed.failed_outside->first == proto::STEP_ASSERTION_FAILED;
    result.set_status(assertion ? proto::RUN_ASSERTION_FAILED : proto::RUN_EXCEPTION);
    result.set_detail((assertion ? "assertion failed outside any step: " : "uncaught exception outside any step: ") +
                      parsed.failed_outside->second);
    return result;
  }
  const bool stopped = end.signal == SIGTERM || end.signal == SIGINT || end.signal == SIGHUP || end.signal == SIGKILL;
  if (stopped && unfinished == nullptr) {
    // Stopped from outside (a harness's timeout, Ctrl-C, record --timeout) while no step ran: the
    // actors waited for something that did not come.
    result.set_status(proto::RUN_HANG);
    result.set_detail("stopped by " + signal_text(end.signal) + " after " + std::to_string(result.steps()) +
                      " steps, no step in progress: the run waited (a deadlock, or a wait for something from outside)");
  } else if (end.signal != 0 || (!end.known && unfinished != nullptr)) {
    result.set_status(proto::RUN_CRASH);
    result.set_detail((end.signal != 0 ? "crashed with " + signal_text(end.signal) : std::string("died")) +
                      (unfinished != nullptr ? " in " + at_step(*unfinished) : std::string(" outside any step")));
  } else if (!parsed.deadlock.empty()) {
    result.set_status(proto::RUN_DEADLOCK);
    std::string detail = "deadlock: ";
    for (std::size_t i = 0; i < parsed.deadlock.size(); ++i) detail += (i == 0 ? "" : "; ") + parsed.deadlock[i];
    result.set_detail(detail);
  } else if (end.exit_code != 0) {
    result.set_status(proto::RUN_EXIT_WITHOUT_RESULT);
    result.set_detail("the program exited with status " + std::to_string(end.exit_code) + " after " +
                      std::to_string(result.steps()) + " steps, no step having failed");
  } else {
    result.set_status(proto::RUN_COMPLETED);
  }
  return result;
}

}  // namespace

proto::TraceFile trace_of_free_run(std::string_view log, const ProcessEnd& end, const std::string& subject,
                                   const std::vector<std::string>& args) {
  const Parsed parsed = parse(log);
  std::string program = subject;
  std::vector<std::string> words = args;
  if (subject.empty() && !parsed.command_line.empty()) {
    program = parsed.command_line.front();
    words.assign(parsed.command_line.begin() + 1, parsed.command_line.end());
  }
  // A replay follows every recorded step, and may take as many again after them.
  const std::uint64_t step_limit = std::max<std::uint64_t>(options::kDefaultStepLimit, 2 * parsed.steps.size());
  auto trace =
      wire::new_trace_file(program, words, "fifo", step_limit, {}, proto::DELIVERY_UNORDERED, proto::TIMERS_ANYTIME);
  trace.set_recorded(true);
  auto* initial = trace.add_events();
  initial->set_actor("env");
  proto::Event* unfinished = nullptr;
  std::uint32_t step = 0;
  for (const auto& [place, recorded] : parsed.steps) {
    auto* event = trace.add_events();
    *event = recorded;
    event->set_step(++step);
    if (recorded.message() == parsed.died_in) unfinished = event;
  }
  *trace.mutable_result() = result_of(trace, parsed, end, unfinished);
  // The step a fatal signal ended, marked as the hook's last words mark it under control, so that
  // its replay agrees (a stop from outside has none).
  if (unfinished != nullptr && trace.result().status() == proto::RUN_CRASH && end.signal != 0) {
    unfinished->set_outcome(proto::STEP_CRASH);
  }
  return trace;
}

std::vector<std::string> unreplayable_constructs(std::string_view log) {
  std::vector<std::string> constructs;
  const auto add = [&](const std::string& construct) {
    if (std::find(constructs.begin(), constructs.end(), construct) == constructs.end()) constructs.push_back(construct);
  };
  Names names;
  const auto on_line = [&](const std::vector<std::string>& fields) {
    if (names.read(fields)) return;
    if (fields.size() == 2 && fields[0] == "U") add(fields[1]);
  };
  // A step the trace would leave out: its replay could pass where the run failed.
  const auto on_compact = [&](const CompactStep& step) {
    if (!names.name(step)) add("a damaged log (a step whose actor or type no line before it names)");
  };
  for_each_record(log, on_line, on_compact);
  return constructs;
}

bool failed(const proto::TraceFile& recorded) {
  return recorded.result().status() != proto::RUN_COMPLETED;
}

}  // namespace exocheck::cli
