#pragma once
// What the engine consumes: one execution as the hook recorded it (trace.proto's Event and
// RunResult, reduced to what exploration needs). Identities are the stable string ids of
// DESIGN.md ("0.1", "0.1#3", "env#2").

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace exocheck::engine {

struct SentMessage {
  std::string id;
  std::string receiver;
  bool timer = false;      ///< a timer armed: its firing
  bool quiescent = false;  ///< delivered only when nothing else can be: on every lane (trace.proto)
  /// The receiver's earlier steps whose state its guard rejects this message in (trace.proto).
  std::vector<std::uint32_t> rejected_at{};
  /// Sent in step 0 by a program whose actors start on threads of their own (CAF): what of step 0's
  /// sends its thread had seen, by thread ("env": main's), as positions among them (trace.proto).
  std::vector<std::pair<std::string, std::uint32_t>> start_clock{};
};

/// One macro-step. Step 0 (the initial step) has no actor, message or clock.
struct Step {
  std::string actor;
  std::string message;
  std::vector<SentMessage> sent;  ///< in send order
  std::vector<std::string> created;
  std::vector<std::string> enabled;                          ///< enabled just before the step
  std::vector<std::pair<std::string, std::uint32_t>> clock;  ///< vector clock after the step
  /// Step 0's sends in its causal past, by thread, where actors start on threads of their own
  /// (SentMessage::start_clock); empty otherwise.
  std::vector<std::pair<std::string, std::uint32_t>> start_clock;
  bool destroyed = false;  ///< the actor ended in this step
  bool reply = false;      ///< the message answers a call of the actor: no other message was enabled there
  bool failed = false;     ///< a check failed or an exception escaped: the actor ended with this step
  bool timer = false;      ///< the message delivered is a timer's firing
  bool quiescent = false;  ///< the message delivered was sent quiescent
  bool notified = false;   ///< the handler notified a specification monitor (dependency.md)
  /// The monitors' lanes its notifications are on (Notification.lanes); empty with `notified`: one
  /// lane of all monitors.
  std::vector<std::string> monitor_lanes;
  /// The delivery's label when its handler chose values (exocheck::choose): "0#3?1" ("": none but 0s,
  /// the message id names it); and the labels of the same delivery with one choice made otherwise.
  std::string label;
  std::vector<std::string> alternatives;
  std::vector<std::string> dead_letters;  ///< messages lost in this step
};

/// How an execution ended, as far as exploration cares.
enum class Ending {
  kCompleted,     ///< nothing left enabled, nothing pending
  kDeadlock,      ///< something pending or a call unanswered, nothing enabled
  kAssertion,     ///< exocheck::check failed
  kException,     ///< a handler threw
  kCrash,         ///< the process died (signal, early exit, hang, garbage)
  kStepLimit,     ///< cut at the step limit
  kSleepBlocked,  ///< every enabled message was asleep: a redundant path, cut short
  kDivergence,    ///< the prefix could not be followed (nondeterminism outside the scheduler)
  kLiveness,      ///< a specification monitor hot where the run ended, or past the liveness bound
};

/// A complete record of one run: step 0, then steps 1..n. A failed check or an exception ends
/// the actor that failed (as an exception does in ActorFoundry), not the run: the run goes on to
/// its end, so that races with what happens after the failure are still found.
struct Execution {
  Step initial;
  std::vector<Step> steps;
  /// 0: `initial` and `steps` are the whole run. Otherwise the run left out the steps of its
  /// prefix (0 .. first_step - 1), which the engine already holds, and `steps` start at
  /// first_step (= the prefix's length; `initial` is unused). HMS and SGR learn from whole runs.
  std::size_t first_step = 0;
  Ending ending = Ending::kCompleted;
  std::string detail;                    ///< the verdict's text, for reports
  std::vector<std::string> final_state;  ///< per-actor summaries, sorted
  /// The explorer injected a fault somewhere in the run, its prefix included (the hook's word):
  /// counted, so that a fault budget no run used can be told.
  bool faulted = false;
};

/// True for the endings that are bugs of the subject (not reductions or limits). A run cut at the
/// step limit did not end: a bug (a livelock) only when termination is checked, otherwise a bound
/// that keeps the exploration from being complete.
inline bool is_bug(Ending ending, bool check_termination) {
  return ending == Ending::kDeadlock || ending == Ending::kAssertion || ending == Ending::kException ||
         ending == Ending::kCrash || ending == Ending::kDivergence || ending == Ending::kLiveness ||
         (ending == Ending::kStepLimit && check_termination);
}

}  // namespace exocheck::engine
