// caf-bank: a bank account served by request/response, with a lost-update race. Each client
// deposits 100 by reading the balance (get) and writing it back increased (put): two requests,
// so another client's get can come in between. When both gets precede both puts, one deposit is
// lost and the auditor's assertion fails. With --fixed the clients send one atomic
// deposit(100) request instead, and the balance is right in every order. With --detached the
// account runs on a thread of its own, as an actor doing blocking I/O is spawned.

#include <cassert>
#include <iostream>

#include "caf/all.hpp"

namespace {

using get_atom = caf::atom_constant<caf::atom("get")>;
using put_atom = caf::atom_constant<caf::atom("put")>;
using deposit_atom = caf::atom_constant<caf::atom("deposit")>;
using ok_atom = caf::atom_constant<caf::atom("ok")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
using stop_atom = caf::atom_constant<caf::atom("stop")>;

struct config : caf::actor_system_config {
  int clients = 2;
  bool fixed = false;
  bool detached = false;
  config() {
    opt_group{custom_options_, "global"}
        .add(clients, "clients", "number of clients depositing 100 each (>= 1)")
        .add(fixed, "fixed", "deposit with one atomic request")
        .add(detached, "detached", "the account runs on a thread of its own (spawn<caf::detached>)");
  }
};

struct account_state {
  int balance = 0;
};

/// The account: answers get, put and deposit; quits on stop.
caf::behavior account(caf::stateful_actor<account_state>* self) {
  return {
      [=](get_atom) { return self->state.balance; },
      [=](put_atom, int balance) {
        self->state.balance = balance;
        return ok_atom::value;
      },
      [=](deposit_atom, int amount) {
        self->state.balance += amount;
        return ok_atom::value;
      },
      [=](stop_atom) { self->quit(); },
  };
}

/// Deposits 100, then tells the auditor. Returns no behavior: it terminates once its last
/// response has been handled.
void client(caf::event_based_actor* self, caf::actor acc, caf::actor auditor, bool fixed) {
  if (fixed) {
    self->request(acc, caf::infinite, deposit_atom::value, 100).then([=](ok_atom) {
      self->send(auditor, done_atom::value);
    });
    return;
  }
  self->request(acc, caf::infinite, get_atom::value).then([=](int balance) {
    self->request(acc, caf::infinite, put_atom::value, balance + 100).then([=](ok_atom) {
      self->send(auditor, done_atom::value);
    });
  });
}

struct auditor_state {
  int reported = 0;
};

/// Once every client has reported, reads the balance, checks it and stops the account.
caf::behavior auditor(caf::stateful_actor<auditor_state>* self, caf::actor acc, int clients) {
  return {
      [=](done_atom) {
        if (++self->state.reported < clients) return;
        self->request(acc, caf::infinite, get_atom::value).then([=](int balance) {
          int expected = 100 * clients;
          std::cout << "bank: balance " << balance << ", expected " << expected << std::endl;
          assert(balance == expected);
          self->send(acc, stop_atom::value);
          self->quit();
        });
      },
  };
}

}  // namespace

void caf_main(caf::actor_system& sys, const config& cfg) {
  if (cfg.clients < 1) {
    std::cerr << "bank: --clients must be at least 1" << std::endl;
    return;
  }
  auto acc = cfg.detached ? sys.spawn<caf::detached>(account) : sys.spawn(account);
  auto aud = sys.spawn(auditor, acc, cfg.clients);
  for (int i = 0; i < cfg.clients; ++i) sys.spawn(client, acc, aud, cfg.fixed);
}

CAF_MAIN()
