#include "exocheck/coordinator/bug_signature.hpp"

#include <string.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <vector>

namespace exocheck::coordinator {
namespace {

// Types by actor and by message id, from what the run's steps created and sent.
struct RunNames {
  std::map<std::string, std::string> actor_types;
  std::map<std::string, std::string> message_types;

  explicit RunNames(EventSpan events) {
    for (const proto::Event* event : events) {
      for (const auto& created : event->actor_types()) actor_types[created.actor()] = created.type();
      for (const auto& sent : event->sent()) message_types[sent.id()] = sent.type();
    }
  }
  // An actor without a known type (created outside any recorded step) is named by its id.
  std::string actor(const std::string& id) const {
    const auto found = actor_types.find(id);
    return found == actor_types.end() || found->second.empty() ? id : found->second;
  }
  std::string message(const std::string& id) const {
    const auto found = message_types.find(id);
    return found == message_types.end() ? id : found->second;
  }
};

// A check's or an exception's text with its numbers masked: "two leaders in term 1: 2 and 1" and
// "... 1: 1 and 2" are the same check failing on other data. Each run of digits, with the dots
// between them (an actor id, a decimal), becomes "<n>".
std::string masked(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      out += text[i++];
      continue;
    }
    while (i < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i])) ||
            (text[i] == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))))) {
      ++i;
    }
    out += "<n>";
  }
  return out;
}

std::string signal_name(int signal) {
  if (const char* abbreviation = ::sigabbrev_np(signal)) return std::string("SIG") + abbreviation;
  return "signal " + std::to_string(signal);
}

// A deadlock's waiting set by types, each entry once: three cells waiting on each other in a ring
// and two in a pair are one bug, whichever cells they are, whatever else is left pending. Without
// an actor waiting for a reply (guards refuse every message left), what is pending for whom.
std::string waiting_set(const proto::RunResult& result, const RunNames& names) {
  std::set<std::string> entries;
  for (const auto& blocked : result.blocked()) {
    // No reply awaited: main awaits the actor's end, which never comes (RunResult.blocked).
    entries.insert(blocked.waiting_for().empty() ? names.actor(blocked.actor()) + " never ends, and main awaits it"
                                                 : names.actor(blocked.actor()) + " waits for the reply to " +
                                                       names.message(blocked.waiting_for()));
  }
  const bool waits = !entries.empty();
  if (!waits) {
    for (const auto& message : result.pending()) {
      entries.insert(message.type() + " to " + names.actor(message.receiver()) +
                     (message.receiver_destroyed() ? " (destroyed)" : ""));
    }
  }
  std::string text = waits || entries.empty() ? "" : "pending, none enabled: ";
  bool first = true;
  for (const auto& entry : entries) text += (std::exchange(first, false) ? "" : waits ? "; " : ", ") + entry;
  return text;
}

}  // namespace

std::string BugSignature::key() const {
  // Unit separators: no type name or text a person writes holds one.
  return proto::RunStatus_Name(status) + '\x1f' + actor_type + '\x1f' + message_type + '\x1f' + what;
}

std::string BugSignature::text() const {
  std::string text;
  if (!actor_type.empty()) text = "in " + actor_type + (message_type.empty() ? "" : " handling " + message_type);
  if (!what.empty()) text += (text.empty() ? "" : ": ") + what;
  return text;
}

namespace {

/// A failed step's part of a signature: its actor's type, its message's type, its text masked.
void name_failed_step(BugSignature& signature, const RunNames& names, const proto::Event& event) {
  signature.actor_type = event.step() == 0 ? "main" : names.actor(event.actor());
  signature.message_type = event.type();
  signature.what = masked(event.detail());
}

BugSignature signature_named(EventSpan events, const proto::RunResult& result, const RunNames& names) {
  BugSignature signature;
  signature.status = result.status();
  switch (result.status()) {
    case proto::RUN_ASSERTION_FAILED:
    case proto::RUN_EXCEPTION:
      for (const proto::Event* event : events) {
        if (event->outcome() == proto::STEP_OK) continue;
        name_failed_step(signature, names, *event);
        break;
      }
      // No step failed: the run failed before its first (a CAF assert in caf_main), and its
      // verdict's text is all there is.
      if (signature.what.empty()) signature.what = masked(result.detail());
      break;
    case proto::RUN_DEADLOCK:
      signature.what = waiting_set(result, names);
      break;
    case proto::RUN_CRASH:
      if (result.signal() != 0) signature.what = signal_name(result.signal());
      break;
    case proto::RUN_EXIT_WITHOUT_RESULT:
      signature.what = "exit code " + std::to_string(result.exit_code());
      break;
    case proto::RUN_NONDETERMINISTIC:
      signature.what = result.detail();
      break;
    case proto::RUN_LIVENESS:
      signature.what = masked(result.detail());
      break;
    default:
      break;  // a hang, a step limit (a livelock), a protocol error: the kind says it all
  }
  return signature;
}

std::vector<const proto::Event*> events_of(const proto::TraceFile& trace) {
  std::vector<const proto::Event*> events;
  events.reserve(static_cast<std::size_t>(trace.events_size()));
  for (const auto& event : trace.events()) events.push_back(&event);
  return events;
}

}  // namespace

BugSignature signature_of(EventSpan events, const proto::RunResult& result) {
  return signature_named(events, result, RunNames(events));
}

BugSignature signature_of(const proto::TraceFile& trace) {
  return signature_of(events_of(trace), trace.result());
}

std::vector<Failure> failures_of(EventSpan events, const proto::RunResult& result) {
  const RunNames names(events);
  std::vector<Failure> failures{{signature_named(events, result, names), result.detail()}};
  if (result.status() != proto::RUN_ASSERTION_FAILED && result.status() != proto::RUN_EXCEPTION) return failures;
  for (const proto::Event* event : events) {
    const bool assertion = event->outcome() == proto::STEP_ASSERTION_FAILED;
    if (!assertion && event->outcome() != proto::STEP_EXCEPTION) continue;
    Failure failure;
    failure.signature.status = assertion ? proto::RUN_ASSERTION_FAILED : proto::RUN_EXCEPTION;
    name_failed_step(failure.signature, names, *event);
    const auto same = [&](const Failure& f) { return f.signature == failure.signature; };
    if (std::any_of(failures.begin(), failures.end(), same)) continue;
    // As the hook words the run's first failure (ControlledRuntime::note_failure).
    failure.detail = std::string(assertion ? "assertion failed" : "uncaught exception") + " in actor " +
                     event->actor() + " handling " + event->message() + " (" + event->type() + ") at step " +
                     std::to_string(event->step()) + ": " + event->detail();
    failures.push_back(std::move(failure));
  }
  return failures;
}

std::vector<Failure> failures_of(const proto::TraceFile& trace) {
  return failures_of(events_of(trace), trace.result());
}

}  // namespace exocheck::coordinator
