#include "guard_history.hpp"

#include "exocheck/actor.hpp"
#include "exocheck/detail/actor_cell.hpp"

namespace exocheck::detail {

void remember_guard_views(ActorCell& cell, std::uint32_t step) {
  if (!cell.actor || !cell.awaiting.empty()) return;
  GuardViews views = guard_views(*cell.actor);
  if (views.empty()) return;
  if (cell.guard_history.size() == kGuardHistorySteps) cell.guard_history.erase(cell.guard_history.begin());
  cell.guard_history.push_back({step, std::move(views)});
}

void note_rejections(const Envelope& envelope, proto::SentMessage& sent) {
  const ActorCell& receiver = *envelope.receiver;
  if (!receiver.actor) return;
  for (const auto& earlier : receiver.guard_history) {
    if (rejected_by(earlier.views, envelope)) sent.add_rejected_at(earlier.step);
  }
}

}  // namespace exocheck::detail
