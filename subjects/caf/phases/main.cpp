// caf-phases: caf_main runs two phases, each ended by await_all_actors_done() (as CAF's own
// typed_calculator example does), on CAF 0.17. In phase k, k clients each deposit 100 into a new
// account by reading its balance and writing it back 100 higher (request(...).then); an auditor
// counts their `done`s and then closes the account, which reports its balance to caf_main as it
// ends. After each phase caf_main asserts the balance is 100 * k. Phase one has one client and
// cannot fail; phase two loses a deposit when both reads come before both writes. With --fixed
// the clients send deposits the account adds.

#include <cassert>
#include <iostream>

#include "caf/all.hpp"

namespace {

using get_atom = caf::atom_constant<caf::atom("get")>;
using put_atom = caf::atom_constant<caf::atom("put")>;
using deposit_atom = caf::atom_constant<caf::atom("deposit")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
using close_atom = caf::atom_constant<caf::atom("close")>;

struct config : caf::actor_system_config {
  bool fixed = false;
  config() { opt_group{custom_options_, "global"}.add(fixed, "fixed", "clients send deposits the account adds"); }
};

struct account_state {
  int balance = 0;
  static inline const char* name = "account";
};

/// Holds a balance; on `close` writes it to `report` and ends.
caf::behavior account(caf::stateful_actor<account_state>* self, int* report) {
  return {
      [=](get_atom) { return self->state.balance; },
      [=](put_atom, int balance) { return self->state.balance = balance; },
      [=](deposit_atom, int amount) { return self->state.balance += amount; },
      [=](close_atom) {
        *report = self->state.balance;
        self->quit();
      },
  };
}

/// Deposits 100, then tells `auditor`.
void client(caf::event_based_actor* self, const caf::actor& acc, const caf::actor& auditor, bool fixed) {
  auto done = [=](int) {
    self->send(auditor, done_atom::value);
    self->quit();
  };
  if (fixed) {
    self->request(acc, caf::infinite, deposit_atom::value, 100).then(done);
    return;
  }
  self->request(acc, caf::infinite, get_atom::value).then([=](int balance) {
    self->request(acc, caf::infinite, put_atom::value, balance + 100).then(done);
  });
}

struct auditor_state {
  int done = 0;
  static inline const char* name = "auditor";
};

/// Closes the account once `clients` clients are done.
caf::behavior auditor(caf::stateful_actor<auditor_state>* self, const caf::actor& acc, int clients) {
  return {[=](done_atom) {
    if (++self->state.done < clients) return;
    self->send(acc, close_atom::value);
    self->quit();
  }};
}

}  // namespace

void caf_main(caf::actor_system& system, const config& cfg) {
  for (int clients = 1; clients <= 2; ++clients) {
    int balance = -1;
    auto acc = system.spawn(account, &balance);
    auto audit = system.spawn(auditor, acc, clients);
    for (int i = 0; i < clients; ++i) system.spawn(client, acc, audit, cfg.fixed);
    acc = nullptr;  // the account ends when it is closed; caf_main keeps no handle that outlives it
    audit = nullptr;
    system.await_all_actors_done();
    std::cout << "phases: phase " << clients << ": balance " << balance << ", expected " << 100 * clients << std::endl;
    assert(balance == 100 * clients);
  }
}

CAF_MAIN()
