// CAF's clock as timers of the controlled runtime (caf_bridge.hpp, "Time"). CAF's testing
// scheduler keeps every delayed message and timeout in its clock and fires them only when told
// to; the adapter mirrors the clock's entries as timers after every step, and a timer's delivery
// fires exactly its entry, as the test clock's trigger_timeout() fires the first one.

#include <algorithm>
#include <chrono>
#include <unordered_set>

#include <caf/actor_cast.hpp>
#include <caf/detail/simple_actor_clock.hpp>
#include <caf/scheduled_actor.hpp>

#include "caf_bridge.hpp"
#include "controlled_runtime.hpp"
#include "identity.hpp"

namespace exocheck::caf_adapter {
namespace {

using Clock = caf::detail::simple_actor_clock;

/// The clock's protected members, named through a derived class (as ResponseWaits in
/// caf_bridge.cpp): the schedule, the per-actor index into it, and how an entry is delivered.
struct ClockAccess : Clock {
  static constexpr auto schedule = &ClockAccess::schedule_;
  static constexpr auto lookup = &ClockAccess::actor_lookup_;
  static constexpr auto ship = &ClockAccess::ship;
};

/// Whether an entry is a stream's tick (scheduled_actor::set_stream_timeout).
bool stream_tick(const Clock::delayed_event& event) {
  return event.subtype == Clock::ordinary_timeout_type &&
         static_cast<const Clock::ordinary_timeout&>(event).type == caf::atom("stream");
}

struct AwaitedResponses : caf::scheduled_actor {
  static constexpr auto awaited = &AwaitedResponses::awaited_responses_;
};

/// The actor an entry delivers to.
caf::abstract_actor* target_of(const Clock::delayed_event& event) {
  switch (event.subtype) {
    case Clock::ordinary_timeout_type:
      return caf::actor_cast<caf::abstract_actor*>(static_cast<const Clock::ordinary_timeout&>(event).self);
    case Clock::multi_timeout_type:
      return caf::actor_cast<caf::abstract_actor*>(static_cast<const Clock::multi_timeout&>(event).self);
    case Clock::request_timeout_type:
      return caf::actor_cast<caf::abstract_actor*>(static_cast<const Clock::request_timeout&>(event).self);
    case Clock::actor_msg_type:
      return caf::actor_cast<caf::abstract_actor*>(static_cast<const Clock::actor_msg&>(event).receiver);
    default:
      return nullptr;
  }
}

Clock::schedule_map::iterator entry_of(Clock& clock, const void* event) {
  auto& schedule = clock.*ClockAccess::schedule;
  return std::find_if(schedule.begin(), schedule.end(), [&](const auto& entry) { return entry.second.get() == event; });
}

}  // namespace

void CafBridge::mirror_clock(detail::ActorCell* arming) {
  Clock& clock = scheduler_->clock();
  const auto& schedule = clock.*ClockAccess::schedule;
  if (schedule.empty() && timers_.empty()) return;  // most steps of most programs
  std::unordered_set<const void*> present;
  for (const auto& [due, event] : schedule) {
    auto mirrored = timers_.find(event.get());
    if (mirrored != timers_.end() && mirrored->second.due == event->due &&
        mirrored->second.subtype == static_cast<int>(event->subtype)) {
      present.insert(event.get());
    }
  }
  // Cancelled by CAF (a response came, a new after(...) replaced the last one, the actor ended).
  for (auto it = timers_.begin(); it != timers_.end();) {
    if (present.count(it->first) != 0) {
      ++it;
      continue;
    }
    runtime_.cancel(it->second.cell, it->second.series);
    it = timers_.erase(it);
  }
  for (const auto& [due, event] : schedule) {
    if (present.count(event.get()) == 0) arm_timer(event.get(), arming);
  }
}

void CafBridge::arm_timer(const void* key, detail::ActorCell* arming) {
  const auto& event = *static_cast<const Clock::delayed_event*>(key);
  if (event.subtype == Clock::group_msg_type) refuse("a delayed message to a group (delayed_send to a caf::group)");
  detail::ActorCell* cell = cell_of(target_of(event));
  if (cell == nullptr) refuse("a timer of an actor that exocheck does not control (one of CAF's hidden actors)");
  std::string name;
  std::string summary;
  switch (event.subtype) {
    case Clock::ordinary_timeout_type:
    case Clock::multi_timeout_type: {
      const caf::atom_value type = event.subtype == Clock::ordinary_timeout_type
                                       ? static_cast<const Clock::ordinary_timeout&>(event).type
                                       : static_cast<const Clock::multi_timeout&>(event).type;
      name = "timeout:" + caf::to_string(type);
      summary = "timeout " + std::to_string(event.subtype == Clock::ordinary_timeout_type
                                                ? static_cast<const Clock::ordinary_timeout&>(event).id
                                                : static_cast<const Clock::multi_timeout&>(event).id);
      break;
    }
    case Clock::request_timeout_type:
      name = "request timeout";
      summary = "request " +
                std::to_string(static_cast<const Clock::request_timeout&>(event).id.request_id().integer_value());
      break;
    default: {
      const auto& message = static_cast<const Clock::actor_msg&>(event);
      name = CafMessageTypes::name_of(*message.content, *system_);
      summary = caf::to_string(message.content->content());
    }
  }
  const auto delay = std::max(event.due - time_of(arming), caf::actor_clock::duration_type{0});
  auto firing = std::make_unique<detail::Envelope>();
  firing->sender = arming;
  firing->id = next_timer_id(arming);
  firing->receiver = cell;
  firing->type = &types_.timer_type(name);
  firing->payload = detail::make_payload(CafTimer{key, std::move(summary)});
  firing->timer = detail::TimerKind::kOnce;
  firing->delay = std::chrono::duration_cast<std::chrono::nanoseconds>(delay);
  firing->series = firing->id;
  // A stream's tick that found nothing to do fires again only when nothing else can happen (its
  // actor receiving something first arms a new one): a stream waiting for its credit otherwise
  // ticks for ever while the credit is on its way.
  firing->quiescent = stream_tick(event) && idle_ticks_.count(cell) != 0;
  timers_[key] = MirroredTimer{event.due, static_cast<int>(event.subtype), cell, firing->series};
  runtime_.arm(std::move(firing));
}

caf::actor_clock::time_point CafBridge::time_of(const detail::ActorCell* cell) const {
  auto found = local_time_.find(cell);
  return found != local_time_.end() ? found->second : start_time_;
}

void CafBridge::advance_time(const detail::ActorCell* cell, caf::actor_clock::time_point at_least) {
  auto& time = local_time_[cell];
  time = std::max(time, at_least);
}

void CafBridge::enter_time_of(const detail::ActorCell* cell) {
  scheduler_->clock().current_time = time_of(cell);
}

// An actor awaiting a response (request(...).await) takes nothing else, its request's timeout
// being the response it gets when the answer is late.
bool CafBridge::enabled(const CafTimer& timer) const {
  Clock& clock = scheduler_->clock();
  auto entry = entry_of(clock, timer.event);
  if (entry == (clock.*ClockAccess::schedule).end()) return false;
  const auto& event = *entry->second;
  const auto* actor = dynamic_cast<const caf::scheduled_actor*>(target_of(event));
  if (actor == nullptr) return true;
  const auto& awaited = actor->*AwaitedResponses::awaited;
  if (awaited.empty()) return true;
  return event.subtype == Clock::request_timeout_type &&
         static_cast<const Clock::request_timeout&>(event).id.request_id() == awaited.front().first.request_id();
}

void CafBridge::fire(const CafTimer& timer) {
  failure_.reset();
  auto& clock = scheduler_->clock();
  auto entry = entry_of(clock, timer.event);
  if (entry == (clock.*ClockAccess::schedule).end()) return;  // withdrawn when CAF cancelled it
  detail::ActorCell* cell = timers_.at(timer.event).cell;
  timers_.erase(timer.event);
  advance_time(cell, entry->first);
  auto event = std::move(entry->second);
  (clock.*ClockAccess::schedule).erase(entry);
  auto& lookup = clock.*ClockAccess::lookup;
  if (event->backlink != lookup.end()) lookup.erase(event->backlink);
  caf::abstract_actor* target = target_of(*event);
  const bool tick = stream_tick(*event);
  const std::uint64_t sent_before = sends_;
  firing_to_ = target;
  (clock.*ClockAccess::ship)(*event);
  firing_to_ = nullptr;
  if (auto* blocking = dynamic_cast<caf::blocking_actor*>(target)) {
    wake(*blocking);  // a receive waiting for it takes it (caf_threads.cpp)
    return;
  }
  run_jobs();
  if (tick && sends_ == sent_before) {
    idle_ticks_.insert(cell);
  } else {
    idle_ticks_.erase(cell);
  }
  mirror_clock(cell);
  if (failure_) throw std::runtime_error(*failure_);
}

}  // namespace exocheck::caf_adapter
