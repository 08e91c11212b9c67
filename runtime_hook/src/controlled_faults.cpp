// The controlled runtime's faults and monitors (DESIGN.md, "Faults"). A fault is a choice of the
// step it happens in, as exocheck::choose() is: recorded in the step's label, replayed exactly,
// explored as a branch. What a choice offers depends only on the budget and on what the step's own
// actor (a crash) or the sender (a loss, a duplicate) suffered so far in the run, never on another
// actor's state, so that faults on different actors commute as their steps do (dependency.md,
// "Faults and monitors").

#include <algorithm>
#include <random>

#include "controlled_runtime.hpp"
#include "exocheck/actor.hpp"
#include "identity.hpp"

namespace exocheck::detail {
namespace {

/// Under a randomized strategy, one step or send in this many suffers a fault its budget allows:
/// faults drawn as often as deliveries would end most runs at their first steps.
constexpr std::uint64_t kFaultOdds = 8;

bool named(const google::protobuf::RepeatedPtrField<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::uint32_t ControlledRuntime::fault_choice(std::uint32_t range, proto::Fault fault, const std::string& message) {
  const int index = event_->choices_size();
  std::uint32_t value = 0;
  if (!prescribed_ && random_choices_) {
    // Drawn here rather than by choose(), which would draw each value as often as no fault.
    if (std::uniform_int_distribution<std::uint64_t>(0, kFaultOdds - 1)(choice_random_) == 0) {
      value = static_cast<std::uint32_t>(std::uniform_int_distribution<std::uint64_t>(1, range - 1)(choice_random_));
    }
    auto* choice = event_->add_choices();
    choice->set_range(range);
    choice->set_value(value);
  } else {
    value = choose(range);
  }
  auto* choice = event_->mutable_choices(index);
  choice->set_fault_choice(true);
  if (value != 0) choice->set_fault(fault);
  if (!message.empty()) choice->set_message(message);
  return value;
}

ControlledRuntime::NetworkFault ControlledRuntime::network_fault(const Envelope& envelope) {
  // The network's faults: not a timer (the actor's own clock), not a message to itself, not one
  // sent in step 0 (main's sends, which no step chooses), not the runtime's own messages.
  if (!in_run_ || envelope.sender == nullptr || envelope.sender == envelope.receiver ||
      envelope.timer != TimerKind::kNone || envelope.quiescent || envelope.monitor_request) {
    return NetworkFault::kNone;
  }
  ActorCell& from = *envelope.sender;
  const bool may_lose = from.losses < faults_.losses();
  // A reply is not duplicated: a call takes one answer, and a second would find no call waiting.
  const bool may_duplicate =
      from.duplicates < faults_.duplicates() && envelope.type->copy != nullptr && envelope.answers.empty();
  const auto link = faults_.partitions() != 0 ? link_of(from, *envelope.receiver) : std::nullopt;
  if (!may_lose && !may_duplicate && !link) return NetworkFault::kNone;
  const MessageType& type = *envelope.type;
  const bool lossy =
      type.lossy >= 0 ? type.lossy == 1 : faults_.lossy_types().empty() || named(faults_.lossy_types(), *type.name);
  if (!lossy) return NetworkFault::kNone;
  if (link && partitioned(envelope, *link)) return NetworkFault::kLost;
  if (!may_lose && !may_duplicate) return NetworkFault::kNone;
  const std::uint32_t range = 1 + (may_lose ? 1 : 0) + (may_duplicate ? 1 : 0);
  const std::uint32_t value = fault_choice(range, proto::NO_FAULT, envelope.id);
  if (value == 0) return NetworkFault::kNone;
  auto* choice = event_->mutable_choices(event_->choices_size() - 1);
  if (may_lose && value == 1) {
    choice->set_fault(proto::FAULT_LOSS);
    ++from.losses;
    ++faults_injected_;
    event_->add_cancelled(envelope.id);
    event_->add_lost(envelope.id);
    return NetworkFault::kLost;
  }
  choice->set_fault(proto::FAULT_DUPLICATE);
  ++from.duplicates;
  ++faults_injected_;
  return NetworkFault::kDuplicated;
}

std::optional<std::uint32_t> ControlledRuntime::link_of(const ActorCell& from, const ActorCell& to) const {
  const auto& side = faults_.partition_side();
  if (side.empty()) return to.index + 1;
  if (named(side, from.id) == named(side, to.id)) return std::nullopt;
  return 0;
}

// Whether the link is cut is the sender's own state (which of its sends crossed it, and what was
// chosen at them), never the receiver's: a partition is decided on the sender's lane, as a loss
// is (dependency.md, "Faults and monitors"). A cut that both sides make is the two senders' cuts.
bool ControlledRuntime::partitioned(const Envelope& envelope, std::uint32_t link) {
  ActorCell& from = *envelope.sender;
  auto cut = std::find(from.cut_links.begin(), from.cut_links.end(), link);
  if (cut != from.cut_links.end()) {
    // 0 leaves the link as it is, cut: as with every fault choice, 0 is "nothing new happens".
    if (fault_choice(2, proto::FAULT_HEAL, envelope.id) != 0) {
      from.cut_links.erase(cut);
      return false;
    }
    event_->mutable_choices(event_->choices_size() - 1)->set_fault(proto::FAULT_PARTITION);
  } else {
    if (from.partitions >= faults_.partitions()) return false;
    if (fault_choice(2, proto::FAULT_PARTITION, envelope.id) == 0) return false;
    ++from.partitions;
    ++faults_injected_;
    from.cut_links.push_back(link);
  }
  event_->add_cancelled(envelope.id);
  event_->add_lost(envelope.id);
  return true;
}

std::unique_ptr<Envelope> ControlledRuntime::copy_of(const Envelope& original) {
  ActorCell& from = *original.sender;
  auto copy = std::make_unique<Envelope>();
  name_next_message(*copy, from);
  copy->sender = original.sender;
  copy->receiver = original.receiver;
  copy->type = original.type;
  copy->payload = original.type->copy(original.payload.get());
  copy->is_call = original.is_call;
  copy->answers = original.answers;
  copy->incarnation = original.incarnation;
  copy->send_seq = ++send_seq_;
  copy->clock = step_clock_;
  // A call sent twice is answered twice; the caller waits for the first call's reply only, and
  // drops the copy's as an RPC layer drops the answer to a request it no longer waits for.
  if (copy->is_call) from.abandoned_calls.push_back(copy->id);
  return copy;
}

void ControlledRuntime::offer_crash(ActorCell& cell) {
  if (cell.crashes >= faults_.crashes()) return;
  const bool may =
      cell.crash_mark >= 0
          ? cell.crash_mark == 1
          : (faults_.crash_types().empty() || (cell.type != nullptr && named(faults_.crash_types(), *cell.type))) &&
                (faults_.crash_actors().empty() || named(faults_.crash_actors(), cell.id));
  if (!may) return;
  if (fault_choice(2, proto::FAULT_CRASH, {}) == 0) return;
  ++faults_injected_;
  // An actor that said how to make it again is supervised: it comes back from every crash.
  const bool restart = static_cast<bool>(cell.factory);
  if (restart) event_->mutable_choices(event_->choices_size() - 1)->set_fault(proto::FAULT_CRASH_RESTART);
  crash(cell, restart);
}

// Without a restart, a crash ends the actor as destroy() does: what is pending for it, or sent to
// it later, is never delivered, whichever came first. With one, messages from others stay pending
// for the new incarnation: had the crash dropped them, a message sent just before it and one sent
// just after would fare differently, and the crash would not commute with sends of other actors'
// steps (dependency.md, "Faults and monitors"). A message lost in flight is the loss fault's.
void ControlledRuntime::crash(ActorCell& cell, bool restart) {
  ++cell.crashes;
  event_->set_crashed(true);
  if (!restart) {
    if (crash_end_) crash_end_(cell);
    finish_destroy(cell, "crashed");
    event_->set_destroyed(true);
    return;
  }
  // What the old incarnation asked for goes with it: its timers, the replies to its calls (dropped
  // when they come, if they have not).
  std::vector<std::string> calls = std::move(cell.unanswered_requests);
  cell.unanswered_requests.clear();
  if (!cell.awaiting.empty()) calls.push_back(cell.awaiting);
  const auto its_own = [&](const Envelope& envelope) {
    return envelope.receiver == &cell &&
           (envelope.timer != TimerKind::kNone ||
            (!envelope.answers.empty() && std::find(calls.begin(), calls.end(), envelope.answers) != calls.end()));
  };
  auto lost = std::stable_partition(pending_.begin(), pending_.end(),
                                    [&](const auto& envelope) { return !its_own(*envelope); });
  for (auto it = lost; it != pending_.end(); ++it) {
    calls.erase(std::remove(calls.begin(), calls.end(), (*it)->answers), calls.end());
    event_->add_cancelled((*it)->id);
    event_->add_lost((*it)->id);
  }
  pending_.erase(lost, pending_.end());
  for (auto& call : calls) cell.abandoned_calls.push_back(std::move(call));
  cell.awaiting.clear();
  cell.continuation = nullptr;
  cell.call_timeout.clear();
  cell.on_timeout = nullptr;
  cell.guard_history.clear();
  tell_monitors(cell, "crashed");
  event_->set_restarted(true);
  const auto factory = cell.factory;  // the new incarnation's constructor sets it again
  cell.factory = nullptr;
  cell.crash_mark = -1;
  ++cell.incarnation;  // a Down the old one asked for is not the new one's
  auto& construction = current_construction();
  const Construction outer = construction;
  construction = {this, &cell};
  std::unique_ptr<Actor> actor;
  try {
    actor = factory();
  } catch (...) {
    construction = outer;
    throw;
  }
  construction = outer;
  cell.actor = std::move(actor);
}

void ControlledRuntime::for_each_pending_to(const ActorCell& cell, const std::function<void(Envelope&)>& visit) {
  for (auto& envelope : pending_) {
    if (envelope->receiver == &cell) visit(*envelope);
  }
}

void ControlledRuntime::tell_monitors(ActorCell& cell, const char* reason) {
  auto watchers = std::move(cell.monitors);
  cell.monitors.clear();
  for (const Watcher& watcher : watchers) send(down_message(cell, watcher, reason));
}

void ControlledRuntime::answer_monitor_request(const Envelope& request) {
  ActorCell& target = *request.receiver;
  if (target.destroyed) {
    send(down_message(target, {request.sender, request.incarnation}, "not running"));
  } else {
    target.monitors.push_back({request.sender, request.incarnation});
  }
}

}  // namespace exocheck::detail
