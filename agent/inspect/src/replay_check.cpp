#include "exocheck/agent/replay_check.hpp"

#include <algorithm>
#include <string_view>

#include "exocheck/agent/timeline.hpp"

namespace exocheck::agent {
namespace {

using Difference = std::optional<std::string>;

template <typename Range, typename Format>
std::string listed(const Range& items, Format format) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + format(item);
  return "[" + out + "]";
}

std::string as_is(const std::string& text) {
  return text;
}

std::string sent_text(const proto::SentMessage& sent) {
  return sent.id() + " " + sent.type() + " to " + sent.receiver();
}

std::string quoted(const std::string& text) {
  return "'" + text + "'";
}

/// "step N: recorded <field> X, replay Y" when the two renderings of a field differ.
Difference compare_field(const proto::Event& recorded, std::string_view field, const std::string& was,
                         const std::string& now) {
  if (was == now) return std::nullopt;
  return "step " + std::to_string(recorded.step()) + ": recorded " + std::string(field) + " " + was + ", replay " + now;
}

Difference compare_delivery(const proto::Event& recorded, const proto::Event& replayed) {
  if (recorded.step() != replayed.step()) {
    return "event " + std::to_string(recorded.step()) + ": recorded step number " + std::to_string(recorded.step()) +
           ", replay " + std::to_string(replayed.step());
  }
  if (recorded.message() != replayed.message() || recorded.actor() != replayed.actor()) {
    return "step " + std::to_string(recorded.step()) + ": recorded message " + recorded.message() + " at actor " +
           recorded.actor() + ", replay delivered " + replayed.message() + " at actor " + replayed.actor();
  }
  return std::nullopt;
}

Difference compare_events(const proto::Event& recorded, const proto::Event& replayed) {
  if (auto difference = compare_delivery(recorded, replayed)) return difference;
  const Difference checks[] = {
      compare_field(recorded, "sender", recorded.sender(), replayed.sender()),
      compare_field(recorded, "type", recorded.type(), replayed.type()),
      compare_field(recorded, "summary", quoted(recorded.summary()), quoted(replayed.summary())),
      compare_field(recorded, "clock", format_clock(recorded.clock()), format_clock(replayed.clock())),
      compare_field(recorded, "sent", listed(recorded.sent(), sent_text), listed(replayed.sent(), sent_text)),
      compare_field(recorded, "created", listed(recorded.created(), as_is), listed(replayed.created(), as_is)),
      compare_field(recorded, "enabled", listed(recorded.enabled(), as_is), listed(replayed.enabled(), as_is)),
      compare_field(recorded, "outcome", proto::StepOutcome_Name(recorded.outcome()),
                    proto::StepOutcome_Name(replayed.outcome())),
      compare_field(recorded, "detail", quoted(recorded.detail()), quoted(replayed.detail())),
      compare_field(recorded, "choices", quoted(choices_text(recorded)), quoted(choices_text(replayed))),
      compare_field(recorded, "destroyed", recorded.destroyed() ? "yes" : "no", replayed.destroyed() ? "yes" : "no"),
      compare_field(recorded, "dead letters", listed(recorded.dead_letters(), as_is),
                    listed(replayed.dead_letters(), as_is)),
  };
  for (const auto& check : checks) {
    if (check) return check;
  }
  return std::nullopt;
}

std::string describe(const proto::Event& event) {
  return event.step() == 0 ? std::string("the initial step")
                           : "message " + event.message() + " at actor " + event.actor();
}

Difference compare_lengths(const proto::TraceFile& recorded, const proto::TraceFile& replayed) {
  const int common = std::min(recorded.events_size(), replayed.events_size());
  if (recorded.events_size() > common) {
    const auto& missing = recorded.events(common);
    return "step " + std::to_string(missing.step()) + ": recorded " + describe(missing) + ", replay ended after " +
           std::to_string(common) + (common == 1 ? " event" : " events");
  }
  if (replayed.events_size() > common) {
    const auto& extra = replayed.events(common);
    return "step " + std::to_string(extra.step()) + ": replay delivered " + describe(extra) +
           ", recorded run ended after " + std::to_string(common) + (common == 1 ? " event" : " events");
  }
  return std::nullopt;
}

/// A free run's recording (TraceFile.recorded) names each step's delivery, choices and outcome only:
/// the first step whose delivery or outcome differs, or that the replay did not reach, and then the
/// result's status.
Difference first_difference_from_recording(const proto::TraceFile& recorded, const proto::TraceFile& replayed) {
  for (const auto& step : recorded.events()) {
    if (step.step() == 0) continue;
    const auto same = std::find_if(replayed.events().begin(), replayed.events().end(),
                                   [&](const proto::Event& event) { return event.step() == step.step(); });
    const std::string expected = "the recording delivered " + step.message() + " (" + step.type() + " from " +
                                 step.sender() + ") to actor " + step.actor();
    if (same == replayed.events().end()) {
      const auto& result = replayed.result();
      // Steps the free run took beside its failure (later in Lamport order, concurrent with it) are
      // not the replay's to take: it ended at the same failure, as a failure in caf_main ends it.
      const bool same_failure =
          result.status() == recorded.result().status() && result.status() != proto::RUN_COMPLETED;
      if (same_failure) break;
      return "step " + std::to_string(step.step()) + ": " + expected + "; the replay " +
             (result.status() == proto::RUN_DIVERGENCE ? "could not: " + result.detail()
                                                       : "ended before it: " + proto::RunStatus_Name(result.status()));
    }
    if (same->message() != step.message() || same->actor() != step.actor()) {
      return "step " + std::to_string(step.step()) + ": " + expected + "; the replay delivered " + same->message() +
             " to actor " + same->actor();
    }
    if (auto difference = compare_field(step, "outcome", proto::StepOutcome_Name(step.outcome()),
                                        proto::StepOutcome_Name(same->outcome()))) {
      return difference;
    }
    if (auto difference = compare_field(step, "choices", quoted(choices_text(step)), quoted(choices_text(*same)))) {
      return difference;
    }
  }
  // A free run stopped from outside while no step ran (RUN_HANG) had waited, for good (a controlled
  // run sees a deadlock) or for its timers (a controlled run goes on to its step limit).
  const auto then = replayed.result().status();
  const bool waited = recorded.result().status() == proto::RUN_HANG &&
                      (then == proto::RUN_DEADLOCK || then == proto::RUN_HANG || then == proto::RUN_STEP_LIMIT);
  if (recorded.result().status() != replayed.result().status() && !waited) {
    return "result: recorded " + proto::RunStatus_Name(recorded.result().status()) + ", replay " +
           proto::RunStatus_Name(replayed.result().status()) +
           (replayed.result().detail().empty() ? "" : " (" + replayed.result().detail() + ")");
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_difference(const proto::TraceFile& recorded, const proto::TraceFile& replayed) {
  if (recorded.recorded()) return first_difference_from_recording(recorded, replayed);
  const int common = std::min(recorded.events_size(), replayed.events_size());
  for (int i = 0; i < common; ++i) {
    if (auto difference = compare_events(recorded.events(i), replayed.events(i))) return difference;
  }
  if (auto difference = compare_lengths(recorded, replayed)) return difference;
  if (recorded.result().status() != replayed.result().status()) {
    return "result: recorded " + proto::RunStatus_Name(recorded.result().status()) + ", replay " +
           proto::RunStatus_Name(replayed.result().status());
  }
  // Same schedule, same final state: what a determinism finding's trace must show again.
  const auto& before = recorded.result().final_state();
  const auto& after = replayed.result().final_state();
  if (!std::equal(before.begin(), before.end(), after.begin(), after.end())) {
    return "final state: recorded " + listed(before, as_is) + ", replay " + listed(after, as_is);
  }
  return std::nullopt;
}

}  // namespace exocheck::agent
