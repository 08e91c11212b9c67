// The same tally written with CAF 0.17: three adders, each spawned by caf_main, send it one
// addition from their initialization; 3! = 6 orders of arrival. --expect=N: the sum a test
// expects (6 is right; anything else, a test that fails).

#include <cassert>

#include "caf/all.hpp"

namespace {

using add_atom = caf::atom_constant<caf::atom("add")>;

struct tally_state {
  int sum = 0;
  int received = 0;
};

struct config : caf::actor_system_config {
  int expect = 6;
  config() { opt_group{custom_options_, "global"}.add(expect, "expect", "the sum expected"); }
};

caf::behavior tally(caf::stateful_actor<tally_state>* self, int expected) {
  return {[=](add_atom, int amount) {
    self->state.sum += amount;
    if (++self->state.received == 3) {
      assert(self->state.sum == expected);
      self->quit();
    }
  }};
}

void adder(caf::event_based_actor* self, caf::actor to, int amount) {
  self->send(to, add_atom::value, amount);
}

}  // namespace

void caf_main(caf::actor_system& system, const config& cfg) {
  auto t = system.spawn(tally, cfg.expect);
  for (int amount : {1, 2, 3}) system.spawn(adder, t, amount);
}

CAF_MAIN()
