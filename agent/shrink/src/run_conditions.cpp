#include "exocheck/agent/run_conditions.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "exocheck/agent/timeline.hpp"
#include "exocheck/wire/delivery_label.hpp"

namespace exocheck::agent {
namespace {

struct SentAt {
  std::uint32_t step = 0;
  std::uint32_t position = 0;  ///< 1-based, in its step's sends
  const proto::SentMessage* message = nullptr;
};

std::uint32_t clock_of(const google::protobuf::RepeatedPtrField<proto::ClockEntry>& clock, const std::string& actor) {
  for (const auto& entry : clock) {
    if (entry.actor() == actor) return entry.count();
  }
  return 0;
}

std::string sender_of(const std::string& id) {
  return id.substr(0, id.find('#'));
}

/// Where each message was sent and delivered, each actor's type, and each step's time if messages
/// took no time and each timer fired its duration after its arming.
class TraceIndex {
 public:
  explicit TraceIndex(const proto::TraceFile& trace) : trace_(trace) {
    std::map<std::string, std::uint64_t> actor_time;
    for (const auto& event : trace.events()) {
      std::uint32_t position = 0;
      for (const auto& sent : event.sent()) {
        sent_.emplace(sent.id(), SentAt{event.step(), ++position, &sent});
        start_clocks_ = start_clocks_ || sent.start_clock_size() != 0;
      }
      for (const auto& type : event.actor_types()) type_.emplace(type.actor(), type.type());
      std::uint64_t time = 0;
      if (event.step() > 0 && !event.message().empty()) {
        delivered_at_.emplace(event.message(), event.step());
        if (const SentAt* sent = sent_at(event.message())) {
          time = time_.at(sent->step) + (sent->message->timer() != proto::NOT_A_TIMER ? sent->message->delay_ns() : 0);
        }
        time = std::max(time, actor_time[event.actor()]);
        actor_time[event.actor()] = time;
      }
      time_.push_back(time);
    }
  }

  const SentAt* sent_at(const std::string& id) const {
    const auto it = sent_.find(id);
    return it == sent_.end() ? nullptr : &it->second;
  }
  std::optional<std::uint32_t> delivered_at(const std::string& id) const {
    const auto it = delivered_at_.find(id);
    return it == delivered_at_.end() ? std::nullopt : std::optional(it->second);
  }
  std::uint64_t time(std::uint32_t step) const { return time_.at(step); }

  /// "0 (Account)", or "0" when its type is unknown.
  std::string actor(const std::string& id) const {
    const auto it = type_.find(id);
    return it == type_.end() || it->second.empty() ? id : id + " (" + it->second + ")";
  }

  /// The send of `earlier` is in the causal past of the send of `later`.
  bool sent_before(const SentAt& earlier, const SentAt& later) const {
    if (earlier.step > later.step) return false;
    const auto& at = trace_.events(static_cast<int>(later.step));
    if (earlier.step > 0) {
      if (earlier.step == later.step) return earlier.position < later.position;
      const auto& before = trace_.events(static_cast<int>(earlier.step));
      return clock_of(at.clock(), before.actor()) >= clock_of(before.clock(), before.actor());
    }
    // Step 0 is one sequential step unless its sends came from threads of their own (a CAF
    // program's caf_main and actors' starts): then the later send's step-0 past says.
    if (!start_clocks_) return earlier.step < later.step || earlier.position < later.position;
    const auto& past = later.step == 0 ? later.message->start_clock() : at.start_clock();
    return clock_of(past, sender_of(earlier.message->id())) >= earlier.position;
  }

 private:
  const proto::TraceFile& trace_;
  std::map<std::string, SentAt> sent_;
  std::map<std::string, std::uint32_t> delivered_at_;
  std::map<std::string, std::string> type_;
  std::vector<std::uint64_t> time_;
  bool start_clocks_ = false;
};

std::string message_text(const TraceIndex& index, const std::string& id, const char* direction) {
  const SentAt* sent = index.sent_at(id);
  if (sent == nullptr) return id;
  const std::string other = std::string(direction) == "to" ? sent->message->receiver() : sender_of(id);
  return id + " (" + sent->message->type() + " " + direction + " " + other + ")";
}

/// The schedule's first `step` - 1 deliveries, then `first`, then the rest as the trace went on
/// without `first`'s own delivery.
RunCondition moved_first(const proto::TraceFile& trace, const TraceIndex& index, std::uint32_t step,
                         const std::string& first) {
  RunCondition condition;
  condition.step = step;
  const auto first_at = index.delivered_at(first);
  for (const auto& event : trace.events()) {
    if (event.step() == 0 || event.message().empty()) continue;
    if (event.step() == step) {
      condition.without.push_back(first_at ? wire::label_of(trace.events(static_cast<int>(*first_at))) : first);
      condition.changed_at = condition.without.size();
    }
    if (!first_at || event.step() != *first_at) condition.without.push_back(wire::label_of(event));
  }
  return condition;
}

std::string timer_text(const proto::SentMessage& timer) {
  const std::string duration = duration_text(timer.delay_ns());
  switch (timer.timer()) {
    case proto::TIMER_CALL_TIMEOUT:
      return "the " + duration + " call timeout " + timer.id();
    case proto::TIMER_PERIODIC:
      return "the " + duration + " periodic timer " + timer.id();
    default:
      return "the " + duration + " timer " + timer.id();
  }
}

/// A firing at `event` while a message sent before its due time waits: the first sent of them,
/// one the firing's actor would take first if any.
std::optional<RunCondition> early_firing(const proto::TraceFile& trace, const TraceIndex& index,
                                         const proto::Event& event) {
  const SentAt* timer = index.sent_at(event.message());
  if (event.timer() == proto::NOT_A_TIMER || timer == nullptr) return std::nullopt;
  const SentAt* overtaken = nullptr;
  for (const auto& id : event.enabled()) {
    const SentAt* sent = index.sent_at(id);
    if (id == event.message() || sent == nullptr || sent->message->timer() != proto::NOT_A_TIMER ||
        sent->message->quiescent() || index.time(sent->step) >= index.time(event.step())) {
      continue;
    }
    const auto rank = [&](const SentAt* s) { return std::pair(s->message->receiver() != event.actor(), s->step); };
    if (overtaken == nullptr || rank(sent) < rank(overtaken)) overtaken = sent;
  }
  if (overtaken == nullptr) return std::nullopt;
  RunCondition condition = moved_first(trace, index, event.step(), overtaken->message->id());
  condition.kind = ConditionKind::kEarlyFiring;
  condition.text = timer_text(*timer->message) + " of " + index.actor(event.actor()) + " firing at step " +
                   std::to_string(event.step()) + " before " + message_text(index, overtaken->message->id(), "to") +
                   " is delivered, sent " + duration_text(index.time(event.step()) - index.time(overtaken->step)) +
                   " earlier at step " + std::to_string(overtaken->step);
  return condition;
}

/// A delivery at `event` before a message to the same actor sent causally before it: the first
/// sent of them.
std::optional<RunCondition> overtaking(const proto::TraceFile& trace, const TraceIndex& index,
                                       const proto::Event& event) {
  const SentAt* delivered = index.sent_at(event.message());
  if (event.timer() != proto::NOT_A_TIMER || delivered == nullptr) return std::nullopt;
  const SentAt* overtaken = nullptr;
  for (const auto& id : event.enabled()) {
    const SentAt* sent = index.sent_at(id);
    if (id == event.message() || sent == nullptr || sent->message->receiver() != event.actor() ||
        sent->message->timer() != proto::NOT_A_TIMER || !index.sent_before(*sent, *delivered)) {
      continue;
    }
    if (overtaken == nullptr || sent->step < overtaken->step) overtaken = sent;
  }
  if (overtaken == nullptr) return std::nullopt;
  RunCondition condition = moved_first(trace, index, event.step(), overtaken->message->id());
  condition.kind = ConditionKind::kOvertaking;
  const bool one_sender = sender_of(overtaken->message->id()) == sender_of(event.message());
  condition.text = message_text(index, event.message(), "from") + " delivered to " + index.actor(event.actor()) +
                   " at step " + std::to_string(event.step()) + " before " +
                   message_text(index, overtaken->message->id(), "from") +
                   (one_sender ? ", sent before it by the same actor (delivery that is not FIFO)"
                               : ", sent causally before it (delivery weaker than causal)");
  return condition;
}

std::string fault_text(const TraceIndex& index, const proto::Event& event, const proto::Choice& choice) {
  const std::string step = std::to_string(event.step());
  switch (choice.fault()) {
    case proto::FAULT_CRASH:
      return "a crash of " + index.actor(event.actor()) + " after step " + step;
    case proto::FAULT_CRASH_RESTART:
      return "a crash and restart of " + index.actor(event.actor()) + " after step " + step;
    case proto::FAULT_LOSS:
      return "the loss of " + message_text(index, choice.message(), "to") + " in step " + step;
    case proto::FAULT_DUPLICATE:
      return "a copy of " + message_text(index, choice.message(), "to") + " made in step " + step;
    default:
      return "the link cut at " + message_text(index, choice.message(), "to") + " in step " + step;
  }
}

/// Each fault of `event`'s choices, the schedule the same but for that choice made as by default.
void add_faults(const proto::TraceFile& trace, const TraceIndex& index, const proto::Event& event,
                std::vector<RunCondition>& conditions) {
  for (int j = 0; j < event.choices_size(); ++j) {
    const auto& choice = event.choices(j);
    if (!choice.fault_choice() || choice.value() == 0 || choice.fault() == proto::NO_FAULT ||
        choice.fault() == proto::FAULT_HEAL) {
      continue;
    }
    RunCondition condition;
    condition.kind = ConditionKind::kFault;
    condition.step = event.step();
    condition.text = fault_text(index, event, choice);
    for (const auto& other : trace.events()) {
      if (other.step() == 0 || other.message().empty()) continue;
      if (other.step() != event.step()) {
        condition.without.push_back(wire::label_of(other));
        continue;
      }
      std::vector<std::uint32_t> values;
      for (const auto& made : other.choices()) values.push_back(made.value());
      values[static_cast<std::size_t>(j)] = 0;
      condition.without.push_back(wire::delivery_label(other.message(), values));
      condition.changed_at = condition.without.size();
    }
    conditions.push_back(std::move(condition));
  }
}

}  // namespace

std::vector<RunCondition> conditions_of(const proto::TraceFile& trace) {
  const TraceIndex index(trace);
  std::vector<RunCondition> conditions;
  for (const auto& event : trace.events()) {
    if (event.step() == 0 || event.message().empty()) continue;
    if (auto early = early_firing(trace, index, event)) conditions.push_back(std::move(*early));
    if (auto overtook = overtaking(trace, index, event)) conditions.push_back(std::move(*overtook));
    add_faults(trace, index, event, conditions);
  }
  return conditions;
}

std::optional<Schedule> mended_at_divergence(const proto::TraceFile& original, const Schedule& schedule,
                                             const proto::TraceFile& diverged) {
  const auto at = static_cast<std::size_t>(diverged.result().divergence_index());
  if (diverged.result().status() != proto::RUN_DIVERGENCE || at >= schedule.size()) return std::nullopt;
  const auto label = wire::parse_label(schedule[at]);
  Schedule mended = schedule;
  mended.erase(mended.begin() + static_cast<std::ptrdiff_t>(at));
  const TraceIndex before(original);
  const SentAt* meant = label ? before.sent_at(std::string(label->message)) : nullptr;
  if (meant == nullptr) return mended;
  const TraceIndex now(diverged);
  for (const auto& id : diverged.result().divergence_enabled()) {
    const SentAt* sent = now.sent_at(id);
    if (sent != nullptr && sender_of(id) == sender_of(meant->message->id()) &&
        sent->message->receiver() == meant->message->receiver() && sent->message->type() == meant->message->type()) {
      mended.insert(mended.begin() + static_cast<std::ptrdiff_t>(at), wire::delivery_label(id, label->values));
      break;
    }
  }
  return mended;
}

}  // namespace exocheck::agent
