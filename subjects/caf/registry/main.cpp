// caf-registry: the TransDPOR paper's running example (Fig. 1) on CAF 0.17, a port of
// subjects/registry. A master registers itself with a registry, spawns K workers and sends each
// the registry's handle; every worker then registers itself. The only nondeterminism is the
// order in which the registry receives the K+1 registrations. No bug.
//
// The master's code is the body of its behavior function: it all runs when the master
// initializes (one transition) and returns no behavior, so the master terminates right after.

#include <cstddef>
#include <iostream>
#include <vector>

#include "caf/all.hpp"

namespace {

using register_atom = caf::atom_constant<caf::atom("register")>;  // r0..rK
using registry_atom = caf::atom_constant<caf::atom("registry")>;  // w1..wK

struct config : caf::actor_system_config {
  std::size_t workers = 2;
  config() { opt_group{custom_options_, "global"}.add(workers, "workers", "number of workers that register"); }
};

struct registry_state {
  std::vector<caf::actor> members;  // in arrival order
};

/// Records registrations; quits after the expected number of them.
caf::behavior registry(caf::stateful_actor<registry_state>* self, std::size_t expected) {
  return {
      [=](register_atom, const caf::actor& who) {
        auto& members = self->state.members;
        members.push_back(who);
        if (members.size() == expected) {
          std::cout << "registry: " << members.size() << " registrations" << std::endl;
          self->quit();
        }
      },
  };
}

/// Registers itself once it learns the registry's handle, then quits.
caf::behavior worker(caf::event_based_actor* self) {
  return {
      [=](registry_atom, const caf::actor& reg) {
        self->send(reg, register_atom::value, caf::actor_cast<caf::actor>(self));  // r_i
        self->quit();
      },
  };
}

/// Fig. 1's master: all of its code runs at initialization; it returns no behavior.
void master(caf::event_based_actor* self, std::size_t workers) {
  auto reg = self->spawn(registry, workers + 1);
  self->send(reg, register_atom::value, caf::actor_cast<caf::actor>(self));  // r0
  std::vector<caf::actor> created;
  for (std::size_t i = 0; i < workers; ++i) created.push_back(self->spawn(worker));
  for (const auto& w : created) self->send(w, registry_atom::value, reg);  // w1..wK
}

}  // namespace

void caf_main(caf::actor_system& sys, const config& cfg) {
  sys.spawn(master, cfg.workers);
}

CAF_MAIN()
