// The same tally written with CAF 0.17: three adders, each spawned by caf_main, send it one
// addition from their initialization; 3! = 6 orders of arrival.

#include <cassert>

#include "caf/all.hpp"

namespace {

using add_atom = caf::atom_constant<caf::atom("add")>;

struct tally_state {
  int sum = 0;
  int received = 0;
};

caf::behavior tally(caf::stateful_actor<tally_state>* self) {
  return {[=](add_atom, int amount) {
    self->state.sum += amount;
    if (++self->state.received == 3) {
      assert(self->state.sum == 6);
      self->quit();
    }
  }};
}

void adder(caf::event_based_actor* self, caf::actor to, int amount) {
  self->send(to, add_atom::value, amount);
}

}  // namespace

void caf_main(caf::actor_system& system) {
  auto t = system.spawn(tally);
  for (int amount : {1, 2, 3}) system.spawn(adder, t, amount);
}

CAF_MAIN()
