#include "fake_program.hpp"

#include <algorithm>
#include <string>

namespace exocheck::coordinator::testing {
namespace {

proto::Event initial_event(const std::vector<std::string>& pings) {
  proto::Event event;
  event.set_step(0);
  event.set_actor("env");
  for (const auto& id : pings) {
    auto* sent = event.add_sent();
    sent->set_id(id);
    sent->set_receiver("0");
    sent->set_type("Ping");
  }
  return event;
}

proto::Event delivery(std::uint32_t step, const std::string& message, const std::vector<std::string>& enabled) {
  proto::Event event;
  event.set_step(step);
  event.set_actor("0");
  event.set_message(message);
  event.set_sender("env");
  event.set_type("Ping");
  for (const auto& id : enabled) event.add_enabled(id);
  auto* clock = event.add_clock();
  clock->set_actor("0");
  clock->set_count(step);
  return event;
}

}  // namespace

FakeRun run_fake(const proto::RunRequest& request, FakeBehaviour behaviour) {
  FakeRun run;
  std::vector<std::string> pending;
  for (int i = 1; i <= behaviour.pings; ++i) pending.push_back("env#" + std::to_string(i));
  run.events.push_back(initial_event(pending));
  std::vector<std::string> order(request.prefix().begin(), request.prefix().end());
  for (const auto& id : pending) {
    if (std::find(order.begin(), order.end(), id) == order.end()) order.push_back(id);
  }
  const bool failed = behaviour.fail_when_env2_first && order[0] == "env#2";
  for (std::uint32_t step = 1; step <= order.size(); ++step) {
    auto event = delivery(step, order[step - 1], pending);
    std::erase(pending, order[step - 1]);
    // A failed check ends the actor as destroy() does: what is still pending for it is lost.
    const bool actor_ends = behaviour.destroy_after_first || failed;
    if (failed) {
      event.set_outcome(proto::STEP_ASSERTION_FAILED);
      event.set_detail("env#2 overtook env#1");
    }
    if (actor_ends) {
      event.set_destroyed(behaviour.destroy_after_first);
      for (const auto& id : pending) event.add_dead_letters(id);
      for (const auto& id : pending) run.result.add_dead_letters(id);
    }
    run.events.push_back(std::move(event));
    if (actor_ends) break;
  }
  run.result.set_status(failed ? proto::RUN_ASSERTION_FAILED : proto::RUN_COMPLETED);
  run.result.set_detail(failed ? "check failed in 0: env#2 overtook env#1" : "completed");
  run.result.set_steps(static_cast<std::uint32_t>(run.events.size() - 1));
  if (behaviour.remember_last) run.result.add_final_state("0: last " + run.events.back().message());
  return run;
}

}  // namespace exocheck::coordinator::testing
