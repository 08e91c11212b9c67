// caf-scoped: caf_main reads a counter from a scoped_actor (or a function view) while two actors
// increment it, on CAF 0.17: the read may come before the increments. Each incrementer requests
// `inc` from the counter and, answered, tells caf_main `done`; caf_main asks the counter for its
// value with request(...).receive (or, with --function-view, through make_function_view) and
// asserts that it is 2. With --fixed caf_main first receives both `done`s; with --wait-ms=N it
// waits for each at most N ms, as a test harness does (receive(..., after(...))), and asserts both
// came in time: with --slow-ms=M (the counter takes M ms over an increment) it fails in free runs.

#include <cassert>
#include <chrono>
#include <iostream>
#include <thread>

#include "caf/all.hpp"

namespace {

using inc_atom = caf::atom_constant<caf::atom("inc")>;
using get_atom = caf::atom_constant<caf::atom("get")>;
using done_atom = caf::atom_constant<caf::atom("done")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  bool function_view = false;
  int wait_ms = 0;
  int slow_ms = 0;
  config() {
    opt_group{custom_options_, "global"}
        .add(fixed, "fixed", "caf_main waits for both increments before it reads")
        .add(wait_ms, "wait-ms", "caf_main waits at most this long for each increment before it reads")
        .add(slow_ms, "slow-ms", "the counter takes this long over each increment (a loaded machine)")
        .add(function_view, "function-view", "read through make_function_view instead of a request");
  }
};

struct counter_state {
  int value = 0;
};

caf::behavior counter(caf::stateful_actor<counter_state>* self, int slow_ms) {
  return {
      [=](inc_atom) {
        std::this_thread::sleep_for(std::chrono::milliseconds(slow_ms));
        return ++self->state.value;
      },
      [=](get_atom) { return self->state.value; },
  };
}

/// Increments the counter once, then tells `main` (caf_main's scoped_actor).
void incrementer(caf::event_based_actor* self, const caf::actor& count, const caf::actor& main) {
  self->request(count, caf::infinite, inc_atom::value).then([=](int) { self->send(main, done_atom::value); });
}

}  // namespace

void caf_main(caf::actor_system& system, const config& cfg) {
  auto count = system.spawn(counter, cfg.slow_ms);
  caf::scoped_actor self{system};
  system.spawn(incrementer, count, caf::actor{self});
  system.spawn(incrementer, count, caf::actor{self});
  if (cfg.fixed) {
    for (int i = 0; i < 2; ++i) self->receive([](done_atom) {});
  } else if (cfg.wait_ms > 0) {
    int in_time = 0;
    for (int i = 0; i < 2; ++i) {
      self->receive([&](done_atom) { ++in_time; },
                    caf::after(std::chrono::milliseconds(cfg.wait_ms)) >>
                        [] { std::cout << "scoped: no increment in time" << std::endl; });
    }
    assert(in_time == 2);  // a test harness's check: each increment came in time
  }
  int value = -1;
  if (cfg.function_view) {
    auto read = caf::make_function_view(count);
    if (auto result = read(get_atom::value)) value = result->get_as<int>(0);
  } else {
    self->request(count, caf::infinite, get_atom::value).receive([&](int v) { value = v; }, [](caf::error&) {});
  }
  std::cout << "scoped: counter " << value << ", expected 2" << std::endl;
  assert(value == 2);
  self->send_exit(count, caf::exit_reason::user_shutdown);
}

CAF_MAIN()
