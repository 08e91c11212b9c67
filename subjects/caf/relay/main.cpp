// caf-relay: a message relayed through a second actor, on CAF 0.17. The origin sends its `first`
// to the sink, then asks the relay to pass `second` on; the sink asserts that `first` came first.
// In one process CAF puts a message into its receiver's mailbox as it is sent, so `first` is in
// the sink's mailbox before the relay even gets its request: by hand the assert never fails. A
// model with per-sender FIFO only (two senders, no order between them) lets `second` overtake.

#include <cassert>
#include <iostream>

#include "caf/all.hpp"

namespace {

using first_atom = caf::atom_constant<caf::atom("first")>;
using second_atom = caf::atom_constant<caf::atom("second")>;
using relay_atom = caf::atom_constant<caf::atom("relay")>;

struct sink_state {
  bool first_seen = false;
};

/// Takes `first`, then `second`, in that order.
caf::behavior sink(caf::stateful_actor<sink_state>* self) {
  return {
      [=](first_atom) { self->state.first_seen = true; },
      [=](second_atom) {
        std::cout << "relay: second after first: " << std::boolalpha << self->state.first_seen << std::endl;
        assert(self->state.first_seen);
        self->quit();
      },
  };
}

/// Passes `second` on to the sink it is asked to.
caf::behavior relay(caf::event_based_actor* self) {
  return {
      [=](relay_atom, const caf::actor& to) {
        self->send(to, second_atom::value);
        self->quit();
      },
  };
}

/// Sends `first` to the sink, then has the relay send `second`.
caf::behavior origin(caf::event_based_actor* self, const caf::actor& to, const caf::actor& via) {
  self->send(to, first_atom::value);
  self->send(via, relay_atom::value, to);
  self->quit();
  return {};
}

}  // namespace

void caf_main(caf::actor_system& sys) {
  auto to = sys.spawn(sink);
  auto via = sys.spawn(relay);
  sys.spawn(origin, to, via);
}

CAF_MAIN()
