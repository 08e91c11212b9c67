// Faults in a CAF program (explore --crash, --lose): a crash ends the CAF actor itself, so that its
// monitors, links and the requests on their way to it learn of it as CAF tells them; a loss is the
// runtime's (the message is never put into the mailbox) and leaves a gap in its channel
// (CafBridge::skip_lost). Messages are not delivered twice: the adapter does not copy them.

#include <vector>

#include <caf/sec.hpp>

#include "caf_bridge.hpp"
#include "controlled_runtime.hpp"
#include "real_caf.hpp"

namespace exocheck::caf_adapter {
namespace {

/// What a crashed actor's monitors and links are told. Not exit_reason::kill, which no linked
/// actor survives (a supervisor trapping exits would die with its worker), and not
/// unhandled_exception, which the adapter reports as the bug of a handler that threw: an error of
/// its own, which the default exit handler ends a linked actor with, as any abnormal end.
caf::error crash_reason() {
  return caf::make_error(caf::sec::runtime_error, "crashed by exocheck (--crash)");
}

}  // namespace

void CafBridge::crash(detail::ActorCell& cell) {
  caf::scheduled_actor* actor = nullptr;
  for (const auto& [address, controlled] : controlled_) {
    if (controlled.cell == &cell) actor = controlled.scheduled;
  }
  if (actor == nullptr) return;  // not reached: blocking actors are never offered a crash
  detail::ActorCell* outer = running_;
  running_ = &cell;  // what its end sends is sent in this step, by it
  enter_time_of(&cell);
  actor->quit(crash_reason());
  const bool ended = actor->finalize();
  running_ = outer;
  if (!ended) {
    refuse("a crash (--crash) of actor " + cell.id + ", which CAF keeps alive after quit() (an open stream)");
  }
  run_jobs();
  mirror_clock(&cell);  // its timers went with it
}

void CafBridge::bounce_requests_to(const detail::ActorCell& cell) {
  // Gathered first: each answer is a message sent, which the runtime adds to what it visits.
  std::vector<CafDelivery*> requests;
  controlled_runtime().for_each_pending_to(cell, [&](detail::Envelope& envelope) {
    if (*envelope.type->type != typeid(CafDelivery)) return;
    auto& delivery = *static_cast<CafDelivery*>(envelope.payload.get());
    if (delivery.element && delivery.element->mid.is_request() && delivery.scheduled != nullptr) {
      requests.push_back(&delivery);
    }
  });
  for (CafDelivery* request : requests) real_enqueue(*request->scheduled, std::move(request->element), nullptr);
}

}  // namespace exocheck::caf_adapter
