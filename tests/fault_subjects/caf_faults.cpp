// caf_faults: a CAF program that misbehaves in the ways the CAF adapter must report, one per
// option (CAF syntax):
//   --throw           a handler throws: the actor fails (an uncaught exception)
//   --dead-letter     main sends an actor two messages; it quits after the first (a dead letter)
//   --scoped-receive  main waits in a scoped_actor's receive (not supported under exploration)
// By hand: each ends by itself; --throw prints CAF's report of the exception.

#include <iostream>
#include <stdexcept>

#include "caf/all.hpp"

namespace {

using ping_atom = caf::atom_constant<caf::atom("ping")>;

struct config : caf::actor_system_config {
  bool throw_in_handler = false;
  bool dead_letter = false;
  bool scoped_receive = false;
  config() {
    opt_group{custom_options_, "global"}
        .add(throw_in_handler, "throw", "a handler throws")
        .add(dead_letter, "dead-letter", "a message to an actor that has quit")
        .add(scoped_receive, "scoped-receive", "main receives with a scoped_actor");
  }
};

caf::behavior ledger(caf::event_based_actor* self, bool throws) {
  return {[=](ping_atom) {
    if (throws) throw std::runtime_error("the ledger is corrupt");
    self->quit();
  }};
}

caf::behavior echo(caf::event_based_actor*) {
  return {[](ping_atom) { return ping_atom::value; }};
}

}  // namespace

void caf_main(caf::actor_system& system, const config& cfg) {
  if (cfg.scoped_receive) {
    caf::scoped_actor self{system};
    auto e = system.spawn(echo);
    self->request(e, caf::infinite, ping_atom::value)
        .receive([](ping_atom) { std::cout << "pong\n"; }, [](caf::error&) {});
    caf::anon_send_exit(e, caf::exit_reason::user_shutdown);
    return;
  }
  auto l = system.spawn(ledger, cfg.throw_in_handler);
  caf::anon_send(l, ping_atom::value);
  if (cfg.dead_letter) caf::anon_send(l, ping_atom::value);
}

CAF_MAIN()
